// The API keys section of the Developers tab: the list, Create key, the Roll and
// Revoke confirmations, and the panel that shows a new key the one time it is
// shown (app/components/api-keys.tsx, shared with the platform's keys screen).
import { DataTable } from "#app/components/lists/data-table";
import { ConfirmKeyCard, CreateKeyForm, keyColumns, NewKeyPanel } from "#app/components/api-keys";
import { paths } from "#app/lib/paths";
import type { DevelopersData, NewKey } from "./developers.server";
import { ErrorNotice } from "#app/routes/settings/notice";
import { DEVELOPERS_URL } from "#app/routes/settings/tabs";
import { useSending } from "#app/components/forms/form";

type KeyRow = DevelopersData["keys"][number];
type Confirm = NonNullable<DevelopersData["confirm"]>;
const columns = keyColumns<KeyRow>(paths.confirmApiKey);

export function ApiKeysSection({
  keys,
  confirm,
  keyMode,
  newKey,
  nameError,
  typedName,
  error,
}: {
  keys: readonly KeyRow[];
  confirm: Confirm | null;
  keyMode: "live" | "test";
  newKey: NewKey | null;
  nameError: string | undefined;
  typedName: string | undefined;
  error: string | null;
}) {
  const busy = useSending();
  return (
    <section className="settings-panel" aria-labelledby="api-keys-title">
      <div className="page__header--actions">
        <div>
          <h2 id="api-keys-title">API keys</h2>
          <p className="page__lead">
            {keyMode === "live"
              ? "Live keys: they start with pp_live_ and act for your live data. Keys for trying things out are made in Test mode (the business menu, top right); they start with pp_test_ and act only for test data. "
              : "Test keys: they start with pp_test_ and act only for this business's test data, never its live data. "}
            A key is shown once, when it is made; the list shows only its first characters.
          </p>
        </div>
        <a href="#create-key" className="button button--primary">
          Create key
        </a>
      </div>
      <ErrorNotice error={error} />
      {newKey ? <NewKeyPanel newKey={newKey} backTo={DEVELOPERS_URL} /> : null}
      {confirm ? <ConfirmKeyCard confirm={confirm} busy={busy} action={DEVELOPERS_URL} /> : null}
      <DataTable
        caption="API keys"
        columns={columns}
        rows={keys}
        rowKey={(k) => k.id}
        empty={
          <>
            <h3>No API keys yet</h3>
            <p>Create one below to let your processor send payments to the portal.</p>
          </>
        }
      />
      <CreateKeyForm error={nameError} typed={typedName} busy={busy} resetKey={newKey?.prefix ?? "create"} action={DEVELOPERS_URL} />
    </section>
  );
}
