// /money/merchant-funds and /approvals/transfer/{id} through the built Worker:
// the funds add up, the transfer form refuses bad input by its fields, a double
// submit asks once, and only another person with the right role decides.
import { describe, expect, it } from "vitest";
import { formatAmount } from "#app/lib/format";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { textOf } from "../support/html";
import { mintSession, signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
const ABENA = "abena.darko@example.com";

async function richest(): Promise<{ from: string; fromName: string; to: string; available: number }> {
  const db = await portal().db();
  const merchants = (
    await db.prepare("SELECT id, name FROM merchants WHERE business_id = ? AND status = 'active'").bind(KUMASI).all<{ id: string; name: string }>()
  ).results;
  const withBalance = await Promise.all(merchants.map(async (m) => ({ ...m, available: (await getMerchantBalances(ABENA_KUMASI, m.id)).available })));
  withBalance.sort((a, b) => b.available - a.available);
  return { from: withBalance[0]!.id, fromName: withBalance[0]!.name, to: withBalance[1]!.id, available: withBalance[0]!.available };
}

/** Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts). */
async function post(path: string, form: Record<string, string>, cookie: { Cookie: string }) {
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

async function count(sql: string, ...binds: unknown[]) {
  return (
    (await (
      await portal().db()
    )
      .prepare(sql)
      .bind(...binds)
      .first<number>("n")) ?? 0
  );
}

describe("/money/merchant-funds", () => {
  it("shows collected, fees, pending, available and settled per merchant", async () => {
    const { from, fromName } = await richest();
    const balances = await getMerchantBalances(ABENA_KUMASI, from);
    const text = textOf(await (await portal().fetch("/money/merchant-funds", { headers: await signedInCookie(portal(), ABENA, KUMASI) })).text());
    expect(text).toContain(fromName);
    expect(text).toContain(`${formatAmount(balances.pending)} ${formatAmount(balances.available)}`);
  });

  it("opens the transfer form for a merchant, and 404s for another business's", async () => {
    const { from } = await richest();
    const cookie = await signedInCookie(portal(), ABENA, KUMASI);
    const text = textOf(await (await portal().fetch(`/money/merchant-funds?transfer=${from}`, { headers: cookie })).text());
    expect(text).toContain("Send for approval");
    const foreign = await (await portal().db()).prepare("SELECT id FROM merchants WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: string }>();
    expect((await portal().fetch(`/money/merchant-funds?transfer=${foreign!.id}`, { headers: cookie })).status).toBe(404);
  });

  it("refuses bad input by the fields and writes nothing", async () => {
    const { from, to, available } = await richest();
    const cookie = await signedInCookie(portal(), ABENA, KUMASI);
    const base = { intent: "transfer", from, to: `mer:${to}`, idempotencyKey: crypto.randomUUID() };
    const before = await count("SELECT COUNT(*) AS n FROM transfers");
    for (const [form, message] of [
      [{ ...base, amount: "" }, "Enter an amount."],
      [{ ...base, amount: "12.345" }, "Enter an amount in cedis, like 1,250.00."],
      [{ ...base, amount: "1,2,3" }, "Enter an amount in cedis, like 1,250.00."],
      [{ ...base, amount: "0" }, "Enter an amount above zero."],
      [{ ...base, to: "", amount: "1" }, "Choose where the money goes."],
      [{ ...base, amount: formatAmount(available + 100) }, "This amount exceeds the available balance"],
    ] as const) {
      // The form posts to the page it is on, which has ?transfer= (so the form shows again with its errors).
      const response = await post(`/money/merchant-funds?transfer=${from}`, form, cookie);
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(textOf(await response.text())).toContain(message);
    }
    expect(await count("SELECT COUNT(*) AS n FROM transfers")).toBe(before);
  });

  it("a double submit of the same form asks once", async () => {
    const { from, to } = await richest();
    const cookie = await signedInCookie(portal(), ABENA, KUMASI);
    const form = { intent: "transfer", from, to: `mer:${to}`, amount: "1.50", idempotencyKey: crypto.randomUUID() };
    const [a, b] = await Promise.all([post("/money/merchant-funds", form, cookie), post("/money/merchant-funds", form, cookie)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(await count("SELECT COUNT(*) AS n FROM transfers WHERE idempotency_key = ?", form.idempotencyKey)).toBe(1);
  });

  it("a Viewer cannot ask (403), and sees no Transfer funds", async () => {
    const viewer = await signedInCookie(portal(), "yaw.asante@example.com", ACCRA);
    const page = textOf(await (await portal().fetch("/money/merchant-funds", { headers: viewer })).text());
    expect(page).not.toContain("Transfer funds");
    const response = await post(
      "/money/merchant-funds",
      { intent: "transfer", from: "x", to: "mer:y", amount: "1", idempotencyKey: crypto.randomUUID() },
      viewer,
    );
    expect(response.status).toBe(403);
  });
});

describe("/approvals/transfer/{id}", () => {
  async function asked(amount = "2.00") {
    const { from, to } = await richest();
    const key = crypto.randomUUID();
    await post(
      "/money/merchant-funds",
      { intent: "transfer", from, to: `mer:${to}`, amount, idempotencyKey: key },
      await signedInCookie(portal(), ABENA, KUMASI),
    );
    const row = await (
      await portal().db()
    )
      .prepare("SELECT r.id AS requestId, t.id AS transferId FROM transfers t JOIN approval_requests r ON r.target_id = t.id WHERE t.idempotency_key = ?")
      .bind(key)
      .first<{ requestId: string; transferId: string }>();
    return { ...row!, from, to };
  }

  it("the maker sees no decision buttons and cannot decide by posting", async () => {
    const { requestId, transferId } = await asked();
    const abena = await signedInCookie(portal(), ABENA, KUMASI);
    const text = textOf(await (await portal().fetch(`/approvals/transfer/${requestId}`, { headers: abena })).text());
    expect(text).not.toContain("Approve and move the money");
    // Finance has no decide:approval at all.
    expect((await post(`/approvals/transfer/${requestId}`, { intent: "approve" }, abena)).status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM transfers WHERE id = ? AND status = 'pending_approval'", transferId)).toBe(1);
  });

  it("an administrator approves: the balances move by exactly the amount", async () => {
    const { requestId, from, to } = await asked("3.25");
    const [fromBefore, toBefore] = await Promise.all([getMerchantBalances(ABENA_KUMASI, from), getMerchantBalances(ABENA_KUMASI, to)]);
    const kofi = await signedInCookie(portal());
    const response = await post(`/approvals/transfer/${requestId}`, { intent: "approve" }, kofi);
    expect(response.status).toBe(302);
    expect((await getMerchantBalances(ABENA_KUMASI, from)).available).toBe(fromBefore.available - 325);
    expect((await getMerchantBalances(ABENA_KUMASI, to)).available).toBe(toBefore.available + 325);
    // Decided: read-only, and a second approval is refused.
    const again = await post(`/approvals/transfer/${requestId}`, { intent: "approve" }, kofi);
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain("This transfer is already completed.");
  });

  it("rejecting needs a reason", async () => {
    const { requestId } = await asked();
    const kofi = await signedInCookie(portal());
    const empty = await post(`/approvals/transfer/${requestId}`, { intent: "reject", reason: "" }, kofi);
    expect(empty.status).toBe(400);
    expect(textOf(await empty.text())).toContain("Say why the transfer is rejected.");
    expect((await post(`/approvals/transfer/${requestId}`, { intent: "reject", reason: "Wrong account" }, kofi)).status).toBe(302);
  });

  it("another business's request, or another kind's, is the 404 page", async () => {
    const { requestId } = await asked();
    const other = await mintSession(await portal().db(), portal().url, "ama.mensah@example.com", ACCRA);
    expect((await portal().fetch(`/approvals/transfer/${requestId}`, { headers: { Cookie: other.cookieHeader } })).status).toBe(404);
    const merchantRequest = await (
      await portal().db()
    )
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'merchant' LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string }>();
    expect((await portal().fetch(`/approvals/transfer/${merchantRequest!.id}`, { headers: await signedInCookie(portal()) })).status).toBe(404);
  });
});
