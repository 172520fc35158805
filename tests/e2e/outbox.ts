// The newest one-time code the development outbox "sent" (/__dev/outbox): what the person reads on their phone.
import { expect, type APIRequestContext } from "@playwright/test";
import { isNoticeText } from "../support/sms-texts";

/** The newest code sent to `msisdn`, of a message containing `containing` (a check's purpose) when given. */
export async function latestCodeFor(request: APIRequestContext, msisdn: string, containing = ""): Promise<string> {
  let code = "";
  await expect
    .poll(async () => {
      const outbox = (await (await request.get("/__dev/outbox", { headers: { Accept: "application/json" } })).json()) as {
        messages: { to: string; body: string }[];
      };
      code = /\b(\d{6})\b/.exec(outbox.messages.find((m) => m.to === msisdn && !isNoticeText(m.body) && m.body.includes(containing))?.body ?? "")?.[1] ?? "";
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

/** How many messages the development outbox holds in all (its list shows only the newest): unchanged, nothing was sent. */
export async function outboxTotal(request: APIRequestContext): Promise<number> {
  const outbox = (await (await request.get("/__dev/outbox", { headers: { Accept: "application/json" } })).json()) as { total: number };
  return outbox.total;
}
