// Money that moved is recorded even for a suspended business (decision 039): the switch's platform key still pushes its
// payments, and they are applied; its webhooks wait meanwhile (nothing reaches its endpoint) and go out, once each, when
// it is reactivated. Its own key is refused throughout the suspension.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { sendChecked } from "../support/fresh-check";
import { api, eventually, makeKey, makePlatformKeyFor, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { askLifecycle, EFUA, KWAME, makeStaff, postForm } from "../support/platform";
import { paymentsConsumers, webhooksConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

// The Worker's log, for the consumer's word that it left a suspended business's delivery waiting.
const logged: string[] = [];
const portal = usePortal({ queueConsumers: { ...paymentsConsumers(), ...webhooksConsumers() }, logTo: (line) => logged.push(line) });
let receiver: WebhookReceiver;
let parties: Parties[];
let businessKey: string;
let platformKey: string;
let efua: { Cookie: string };
let kwame: { Cookie: string };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await createWebhookEndpoint(KOFI_KUMASI, META, { url: receiver.url("/hooks"), eventTypes: ["payment.succeeded"] }, newWebhookSecret(), "development");
  parties = await partiesOf(portal(), KUMASI);
  businessKey = await makeKey(portal(), KUMASI);
  platformKey = (await makePlatformKeyFor(portal())).secret;
  await makeStaff(portal().core(), EFUA);
  await makeStaff(portal().core(), KWAME);
  efua = await signedInCookie(portal(), EFUA.email, null);
  kwame = await signedInCookie(portal(), KWAME.email, null);
});
afterAll(() => receiver.close());

async function decided(intent: "suspend" | "reactivate", reason: string): Promise<void> {
  const id = await askLifecycle(portal(), KUMASI, intent, reason, efua);
  const answer = await sendChecked(portal().core(), kwame, () => postForm(portal(), `/platform/requests/${id}`, { intent: "approve" }, kwame));
  expect(answer.status).toBe(302);
}

const announced = (reference: string) => receiver.to("/hooks").filter((r) => r.body.includes(reference));
const applied = async (reference: string) =>
  (await portal()
    .businessDb(KUMASI)
    .prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?")
    .bind(KUMASI, reference)
    .first<{ n: number }>())!.n;

describe("a suspended business's money", () => {
  it("is recorded from the switch, announced only once it is reactivated, and never through its own key meanwhile", async () => {
    await decided("suspend", "Know-your-customer papers expired");

    const own = momoPayment(parties[0]!, { amount: 2_500 });
    const refused = await api(portal(), businessKey, "/api/v1/payments", own);
    expect(refused.status).toBe(403);

    const paid = momoPayment(parties[0]!, { amount: 12_345 });
    const reference = paid.reference as string;
    const sent = await api(portal(), platformKey, "/api/v1/payments", paid, { "PP-Business": KUMASI });
    expect(sent.status).toBe(202);
    await eventually(async () => (await applied(reference)) === 1, 20_000, "the switch's payment applied");
    expect(await applied(own.reference as string)).toBe(0);
    // The consumer and the sweep leave its deliveries waiting: the consumer says it took the delivery and left it.
    await eventually(async () => logged.some((line) => line.includes('"webhooks.business_suspended"')), 20_000, "the consumer to leave the delivery waiting");
    await portal().scheduled("*/5 * * * *");
    expect(announced(reference)).toHaveLength(0);

    await decided("reactivate", "Papers renewed");
    await eventually(async () => announced(reference).length === 1, 20_000, "the waiting webhook sent after reactivation");
    const after = momoPayment(parties[0]!, { amount: 1_000 });
    expect((await api(portal(), businessKey, "/api/v1/payments", after)).status).toBe(202);
    // Once: a payment sent after it is announced too, and the waiting one not again meanwhile.
    await eventually(async () => announced(after.reference as string).length === 1, 20_000, "the webhook of the payment sent after");
    expect(announced(reference)).toHaveLength(1);
  });
});
