// The Profile tab of /settings: who the person is in the portal.
import { Details } from "#app/components/details";
import type { loadProfile } from "./account.server";
import { GENDER_LABEL } from "./tabs";
import { EmailChoices, type EmailChoice } from "#app/routes/notifications/email-choices";

export function ProfileTab({ user, emailChoices }: { user: Awaited<ReturnType<typeof loadProfile>>; emailChoices: readonly EmailChoice[] }) {
  return (
    <>
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Your profile</h2>
        <Details
          rows={[
            ["Name", user.employeeName],
            ["Email", user.employeeEmail],
            ["Gender", GENDER_LABEL[user.employeeGender]],
            ["Phone used to sign in", user.msisdn],
            ["Role", user.role],
          ]}
        />
      </section>
      <EmailChoices choices={emailChoices} email={user.employeeEmail} />
    </>
  );
}
