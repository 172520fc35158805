// Notifications (decision 053) against the built Worker's database: the fan-out tells exactly those the queue shows a
// request to, once each however many runs race, and writes an email only for those who want it; a decision tells its
// maker and settles the waiting notices; sending goes once per delivery, retries what a provider refused and gives up
// on a refused address; the email adapters send what Resend and Postmark document to their local stand-ins; and a
// change made through the Worker reaches the dev outbox with its links, which open the notice (another person's is 404)
// and unsubscribe (signed: a forged token is 404, and the mail client's one-click POST needs no session).
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approveRequest, rejectRequest, requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { requestsWaitingFor } from "#server/approvals/change-requests.db";
import { emailPortFor, type EmailPort } from "#server/notifications/email";
import { fanOut } from "#server/notifications/fan-out.db";
import { NOTIFICATION_KINDS } from "#server/notifications/kinds";
import { readUnsubscribeToken, unsubscribeToken } from "#server/notifications/links";
import { preferencesOf, setPreferences } from "#server/notifications/preferences.db";
import { sendDueNotices } from "#server/notifications/send";
import { DEV_SESSION_SECRET } from "#server/env";
import type { Tenant } from "#server/tenancy/tenant";
import { FAKE_EMAIL_CREDENTIALS, startFakeEmailProviders, type FakeEmailProviders } from "../support/fake-email-providers";
import { signedInCookie } from "../support/sign-in";
import { textOf } from "../support/html";
import { ADJOA, makeStaff } from "../support/platform";
import { ABENA_KUMASI, AMA_KUMASI, ESI_KUMASI, KOFI_KUMASI, KUMASI, META, newMerchant } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const PEOPLE: Tenant[] = [AMA_KUMASI, KOFI_KUMASI, ESI_KUMASI, ABENA_KUMASI];
const EMAILS: Record<string, string> = {
  [AMA_KUMASI.userId]: "ama.mensah@example.com",
  [KOFI_KUMASI.userId]: "kofi.boateng@example.com",
  [ESI_KUMASI.userId]: "esi.owusu@example.com",
  [ABENA_KUMASI.userId]: "abena.darko@example.com",
};
let serial = 0;

function merchant(): ChangeValues {
  serial += 1;
  return newMerchant("N", serial);
}

const business = () => ({ businessId: KUMASI, db: AMA_KUMASI.db });

async function noticesOf(requestIds: readonly string[]) {
  const { results } = await AMA_KUMASI.db
    .prepare(
      `SELECT n.user_id, n.subject_id, n.kind, n.title, n.body, n.subject_kind, n.settled_at, (SELECT COUNT(*) FROM notification_deliveries d WHERE d.notification_id = n.id) AS deliveries
       FROM notifications n WHERE n.business_id = ? AND n.subject_id IN (SELECT value FROM json_each(?))`,
    )
    .bind(KUMASI, JSON.stringify(requestIds))
    .all<{
      user_id: string;
      subject_id: string;
      kind: string;
      title: string;
      body: string;
      subject_kind: string;
      settled_at: string | null;
      deliveries: number;
    }>();
  return results;
}

/** What was sent lately is moved two hours back: the hourly cap starts afresh for the test after. */
async function forgetLastHour() {
  await AMA_KUMASI.db
    .prepare("UPDATE notification_deliveries SET sent_at = ? WHERE business_id = ? AND sent_at > ?")
    .bind(new Date(Date.now() - 2 * 3_600_000).toISOString(), KUMASI, new Date(Date.now() - 3_600_000).toISOString())
    .run();
}

/** Tells everything older first, so a property's runs start from nothing untold (the seed's own requests included). */
beforeAll(async () => {
  for (let i = 0; i < 20 && (await fanOut(business())) > 0; i += 1);
});

describe("the fan-out", () => {
  it("tells each request to exactly those it waits for, once each however many runs race, with an email only for those who want it", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Ama, Kofi and Esi ask for merchants; Finance asks for none.
        fc.array(fc.nat(2), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: PEOPLE.length, maxLength: PEOPLE.length }),
        fc.integer({ min: 1, max: 3 }),
        async (makers, wantsEmail, runs) => {
          for (const [i, person] of PEOPLE.entries())
            await setPreferences(person, person.userId, [{ kind: "request.waiting", channel: "email", wanted: wantsEmail[i]! }], Date.now());
          const ids: string[] = [];
          for (const maker of makers) ids.push(await requestChange(PEOPLE[maker]!, META, { kind: "merchant", action: "create", after: merchant() }));
          await Promise.all(Array.from({ length: runs }, () => fanOut(business())));
          const notices = await noticesOf(ids);
          for (const [i, person] of PEOPLE.entries()) {
            const expected = await requestsWaitingFor(person, person.userId, ids);
            const told = notices.filter((n) => n.user_id === person.userId && n.kind === "request.waiting");
            expect(new Set(told.map((n) => n.subject_id)), person.userId).toEqual(expected);
            expect(told.length, `${person.userId} told once each`).toBe(expected.size);
            for (const notice of told) expect(notice.deliveries, `${person.userId}'s email`).toBe(wantsEmail[i] ? 1 : 0);
          }
          // A run after them all writes nothing.
          expect(await fanOut(business())).toBe(0);
        },
      ),
      { numRuns: 10 },
    );
    for (const person of PEOPLE) await setPreferences(person, person.userId, [{ kind: "request.waiting", channel: "email", wanted: true }], Date.now());
  });

  it("tells the maker of a decision, with the reason, and settles the notices of those who waited", async () => {
    const approved = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: merchant() });
    const rejected = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: merchant() });
    await fanOut(business());
    await approveRequest(KOFI_KUMASI, META, approved, { core: portal().core() });
    await rejectRequest(AMA_KUMASI, META, rejected, "The TIN 0244123456789 is not the merchant's");
    await fanOut(business());
    const notices = await noticesOf([approved, rejected]);
    const esi = notices.filter((n) => n.user_id === ESI_KUMASI.userId);
    expect(esi.map((n) => n.kind).sort()).toEqual(["request.approved", "request.rejected"]);
    const no = esi.find((n) => n.kind === "request.rejected")!;
    expect(no.title).toBe("Your request was rejected");
    expect(no.body).toContain("Reason: The TIN ••••6789 is not the merchant's");
    expect(no.body).not.toMatch(/\d{7}/);
    expect(no.subject_kind).toBe("merchant");
    // Those who waited: their notices are settled, off the bell.
    const waited = notices.filter((n) => n.kind === "request.waiting");
    expect(waited.length).toBeGreaterThan(0);
    expect(waited.every((n) => n.settled_at !== null)).toBe(true);
  });
});

describe("dispute reminders", () => {
  it("tell each person who may respond 3 days and again 1 day before the deadline, once each, and settle when it is answered", async () => {
    const db = AMA_KUMASI.db;
    const payment = await db
      .prepare("SELECT id, merchant_id, reference FROM transactions WHERE business_id = ? ORDER BY id LIMIT 1")
      .bind(KUMASI)
      .first<{ id: number; merchant_id: string; reference: string }>();
    const now = Date.now();
    const id = `dsp_notice_${now}`;
    const due = now + 10 * 86_400_000;
    await db
      .prepare(
        "INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at) VALUES (?, ?, ?, ?, '13.1', 123456, ?, 'open', ?)",
      )
      .bind(id, KUMASI, payment!.merchant_id, payment!.id, due, now)
      .run();
    const told = async () => (await noticesOf([id])).map((n) => `${n.user_id} ${n.title}`).sort();
    await fanOut(business(), now);
    expect(await told()).toEqual([]);
    await fanOut(business(), due - 2.5 * 86_400_000);
    await fanOut(business(), due - 2.4 * 86_400_000);
    const responders = [AMA_KUMASI, KOFI_KUMASI, ESI_KUMASI, ABENA_KUMASI].map((person) => person.userId);
    expect(await told()).toEqual(responders.map((user) => `${user} A dispute's response is due in 3 days`).sort());
    const [first] = await noticesOf([id]);
    expect(first!.body).toMatch(
      new RegExp(`payment ${payment!.reference} \\(GHS 1,234\\.56\\) is disputed: answer with a response and evidence by \\d{2} [A-Z][a-z]{2} \\d{4}\\.$`),
    );
    await fanOut(business(), due - 0.5 * 86_400_000);
    expect(await told()).toEqual(
      responders.flatMap((user) => [`${user} A dispute's response is due in 3 days`, `${user} A dispute's response is due tomorrow`]).sort(),
    );
    await db.prepare("UPDATE disputes SET status = 'submitted', submitted_at = ? WHERE id = ?").bind(now, id).run();
    await fanOut(business(), due - 0.4 * 86_400_000);
    expect((await noticesOf([id])).every((n) => n.settled_at !== null)).toBe(true);
  });
});

describe("sending", () => {
  let fake: FakeEmailProviders;
  beforeAll(async () => {
    fake = await startFakeEmailProviders();
  });
  afterAll(() => fake?.close());

  /** A new request, told; what was due before it is sent first (through the outbox), so a test sees its own emails. */
  async function freshRequest(): Promise<{ id: string; name: string }> {
    await fanOut(business());
    const outbox = settings(emailPortFor({ provider: "outbox" }, { DB: await portal().db() }));
    while ((await sendDueNotices(business(), outbox)).sent > 0);
    await forgetLastHour();
    const after = merchant();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after });
    await fanOut(business());
    return { id, name: String(after.name) };
  }

  async function deliveriesOf(id: string) {
    const { results } = await AMA_KUMASI.db
      .prepare(
        `SELECT d.status, d.attempts, d.address, d.last_error FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
         WHERE n.business_id = ? AND n.subject_id = ? ORDER BY d.address`,
      )
      .bind(KUMASI, id)
      .all<{ status: string; attempts: number; address: string; last_error: string | null }>();
    return results;
  }

  const settings = (port: EmailPort) => ({ email: port, sms: null, portalUrl: "https://portal.example", linkSecret: DEV_SESSION_SECRET });
  // Each test starts with nobody at their hourly cap (the tests before it sent Ama and Kofi many emails).
  beforeEach(forgetLastHour);

  for (const provider of ["resend", "postmark"] as const) {
    it(`${provider}: sends what the provider documents, once per delivery, with the links and the one-click headers`, async () => {
      const port = emailPortFor(
        provider === "resend"
          ? { provider, from: "Partners Portal <notices@portal.example>", apiKey: FAKE_EMAIL_CREDENTIALS.resendApiKey, baseUrl: fake.url }
          : { provider, from: "Partners Portal <notices@portal.example>", serverToken: FAKE_EMAIL_CREDENTIALS.postmarkServerToken, baseUrl: fake.url },
        { DB: await portal().db() },
      );
      fake.mode = "ok";
      fake.received.length = 0;
      const { id, name } = await freshRequest();
      const [first, again] = [await sendDueNotices(business(), settings(port)), await sendDueNotices(business(), settings(port))];
      expect(fake.violations).toEqual([]);
      expect(again.sent).toBe(0);
      const mine = fake.received.filter((email) => email.text.includes(name));
      expect(first.sent).toBe(2);
      expect(new Set(mine.map((email) => email.to))).toEqual(new Set([EMAILS[AMA_KUMASI.userId], EMAILS[KOFI_KUMASI.userId]]));
      for (const email of mine) {
        expect(email.subject).toBe("A request waits for your decision");
        expect(email.text).toMatch(/Esi Owusu asks to add a merchant: Ɔkyeame Ŋkansa Stores 🍍/);
        expect(email.html).toMatch(/href="https:\/\/portal\.example\/notifications\/ntf_[0-9a-f]{32}\/open"/);
        expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
        expect(email.headers["List-Unsubscribe"]).toMatch(/^<https:\/\/portal\.example\/notifications\/unsubscribe\/[\w-]+\.[0-9a-f]{64}>$/);
        if (provider === "resend") expect(email.idempotencyKey).toMatch(/^ndl_/);
      }
      expect((await deliveriesOf(id)).every((d) => d.status === "sent" && d.attempts === 1)).toBe(true);
    });
  }

  it("a provider down or rate-limiting leaves the email to try again later; a refused address is given up at once", async () => {
    const port = emailPortFor(
      { provider: "resend", from: "notices@portal.example", apiKey: FAKE_EMAIL_CREDENTIALS.resendApiKey, baseUrl: fake.url },
      {
        DB: await portal().db(),
      },
    );
    for (const mode of ["down", "limit"] as const) {
      fake.mode = mode;
      const { id } = await freshRequest();
      const now = Date.now();
      const run = await sendDueNotices(business(), settings(port), now);
      expect(run.retrying, mode).toBeGreaterThanOrEqual(2);
      const pending = await deliveriesOf(id);
      expect(pending.every((d) => d.status === "pending" && d.attempts === 1 && /Resend refused the email \(HTTP (500|429)\)/.test(d.last_error ?? ""))).toBe(
        true,
      );
      // Not due again before its wait; due after it, and then sent.
      expect((await sendDueNotices(business(), settings(port), now + 1_000)).sent).toBe(0);
      fake.mode = "ok";
      expect((await sendDueNotices(business(), settings(port), now + 61_000)).sent).toBeGreaterThanOrEqual(2);
      expect((await deliveriesOf(id)).every((d) => d.status === "sent" && d.attempts === 2)).toBe(true);
    }
    fake.mode = "address";
    const { id } = await freshRequest();
    const run = await sendDueNotices(business(), settings(port));
    expect(run.dead).toBeGreaterThanOrEqual(2);
    expect((await deliveriesOf(id)).every((d) => d.status === "dead")).toBe(true);
    // Nothing in a delivery's error names the address.
    expect((await deliveriesOf(id)).every((d) => !(d.last_error ?? "").includes("@"))).toBe(true);
    fake.mode = "ok";
    // Platform staff see what was given up, on the Queues screen: the notice and the error, never the address.
    await makeStaff(portal().core(), ADJOA);
    const queues = textOf(await (await portal().fetch("/platform/queues", { headers: await signedInCookie(portal(), ADJOA.email, null) })).text());
    expect(queues).toContain("Notifications given up");
    expect(queues).toMatch(/Kumasi Fresh Foods\s*A request waits for your decision\s*Email\s*Resend refused the email \(HTTP 422\)/);
    expect(queues).not.toContain("kofi.boateng@example.com");
  });
});

describe("through the Worker", () => {
  beforeEach(forgetLastHour);
  async function outboxEmails(): Promise<{ id: number; to: string; subject: string; text: string; headers: Record<string, string> }[]> {
    const answer = await portal().fetch("/__dev/outbox?limit=500", { headers: { Accept: "application/json" } });
    const body: { emails: { id: number; to: string; subject: string; text: string; headers: Record<string, string> }[] } = await answer.json();
    return body.emails;
  }

  /** The outbox's emails whose text names `marker`, once the Worker's after-response run wrote them (polled, with a deadline). */
  async function emailsNaming(marker: string, count: number) {
    for (let tries = 0; tries < 100; tries += 1) {
      const found = (await outboxEmails()).filter((email) => email.text.includes(marker));
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${count} emails naming ${marker}`);
  }

  it("a request made through the Worker reaches each checker's email; its link opens the notice for its person only", async () => {
    await fanOut(business());
    const after = merchant();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after });
    // Any change through the Worker runs the notifications after its answer: here, marking Esi's notices read.
    const esi = await signedInCookie(portal(), EMAILS[ESI_KUMASI.userId], KUMASI);
    const marked = await portal().fetch("/notifications", {
      method: "POST",
      headers: { ...esi, "Content-Type": "application/x-www-form-urlencoded", Origin: portal().url },
      body: "intent=mark-all-read",
      redirect: "manual",
    });
    expect(marked.status).toBe(302);
    const emails = await emailsNaming(String(after.name), 2);
    expect(new Set(emails.map((email) => email.to))).toEqual(new Set([EMAILS[AMA_KUMASI.userId], EMAILS[KOFI_KUMASI.userId]]));
    const kofis = emails.find((email) => email.to === EMAILS[KOFI_KUMASI.userId])!;
    const open = new URL(/Open in Partners Portal: (\S+)/.exec(kofis.text)![1]!).pathname;
    // Signed out: to sign-in, which comes back here.
    const signedOut = await portal().fetch(open, { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/\/login/);
    // Kofi: read, and on to the request.
    const kofi = await signedInCookie(portal(), EMAILS[KOFI_KUMASI.userId], KUMASI);
    const opened = await portal().fetch(open, { headers: kofi, redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`/approvals/merchant/${id}`);
    // Ama, who may decide it too, but this notice is Kofi's: a 404, as for an id that does not exist.
    const ama = await signedInCookie(portal(), EMAILS[AMA_KUMASI.userId], KUMASI);
    expect((await portal().fetch(open, { headers: ama, redirect: "manual" })).status).toBe(404);
    expect((await portal().fetch("/notifications/ntf_00000000000000000000000000000000/open", { headers: ama, redirect: "manual" })).status).toBe(404);
    // The list shows it read for Kofi.
    const list = await (await portal().fetch("/notifications", { headers: kofi })).text();
    expect(list).toContain(String(after.name));
  });

  it("the one-click unsubscribe works without a session, turns only that kind off, and refuses a forged token", async () => {
    const token = await unsubscribeToken(DEV_SESSION_SECRET, { businessId: KUMASI, userId: KOFI_KUMASI.userId, kind: "request.waiting", channel: "email" });
    expect(await readUnsubscribeToken(DEV_SESSION_SECRET, token)).toMatchObject({ userId: KOFI_KUMASI.userId, kind: "request.waiting" });
    // A link scanner's GET changes nothing.
    const page = await portal().fetch(`/notifications/unsubscribe/${token}`);
    expect(page.status).toBe(200);
    expect((await preferencesOf(KOFI_KUMASI, KOFI_KUMASI.userId, KOFI_KUMASI.role))["request.waiting"].email).toBe(true);
    // RFC 8058: the mail client posts, with no Origin and no cookie.
    const before = await preferencesOf(KOFI_KUMASI, KOFI_KUMASI.userId, KOFI_KUMASI.role);
    const posted = await portal().fetch(`/notifications/unsubscribe/${token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(posted.status).toBe(200);
    const after = await preferencesOf(KOFI_KUMASI, KOFI_KUMASI.userId, KOFI_KUMASI.role);
    expect(after["request.waiting"].email).toBe(false);
    for (const kind of NOTIFICATION_KINDS.filter((k) => k !== "request.waiting")) expect(after[kind].email).toBe(before[kind].email);
    // Another person's, or a changed kind, under the same signature: 404.
    const [payload, signature] = token.split(".");
    const forged = `${Buffer.from(Buffer.from(payload!, "base64url").toString().replace(KOFI_KUMASI.userId, AMA_KUMASI.userId)).toString("base64url")}.${signature}`;
    for (const bad of [forged, `${payload}.${"0".repeat(64)}`, "x", `${payload}`]) {
      const refused = await portal().fetch(`/notifications/unsubscribe/${bad}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(refused.status, bad).toBe(404);
    }
    expect((await preferencesOf(AMA_KUMASI, AMA_KUMASI.userId, AMA_KUMASI.role))["request.waiting"].email).toBe(true);
    await setPreferences(KOFI_KUMASI, KOFI_KUMASI.userId, [{ kind: "request.waiting", channel: "email", wanted: true }], Date.now());
  });
});

describe("EMAIL_PROVIDER=cloudflare", () => {
  // Miniflare runs the send_email binding locally: it checks the message and keeps it.
  const lines: string[] = [];
  const cloudflare = usePortal({
    vars: { EMAIL_PROVIDER: "cloudflare", EMAIL_FROM: "Partners Portal <notices@portal.example>", PORTAL_URL: "https://portal.example" },
    sendEmail: true,
    logTo: (line) => lines.push(line),
  });

  it("sends each notice through the binding after the change that caused it", async () => {
    const db = cloudflare().businessDb(KUMASI);
    const esi = { ...ESI_KUMASI, db };
    const id = await requestChange(esi, META, { kind: "merchant", action: "create", after: merchant() });
    // A change through the Worker (marking Esi's notices read) runs the notifications after its answer.
    const cookie = await signedInCookie(cloudflare(), EMAILS[ESI_KUMASI.userId], KUMASI);
    await cloudflare().fetch("/notifications", {
      method: "POST",
      headers: { ...cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: cloudflare().url },
      body: "intent=mark-all-read",
      redirect: "manual",
    });
    let sent: { address: string; status: string }[] = [];
    for (let tries = 0; tries < 100; tries += 1) {
      sent = (
        await db
          .prepare(
            "SELECT d.address, d.status FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.business_id = ? AND n.subject_id = ?",
          )
          .bind(KUMASI, id)
          .all<{ address: string; status: string }>()
      ).results;
      if (sent.length >= 2 && sent.every((d) => d.status !== "pending")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sent.map((d) => [d.address, d.status]).sort()).toEqual([
      [EMAILS[AMA_KUMASI.userId], "sent"],
      [EMAILS[KOFI_KUMASI.userId], "sent"],
    ]);
    expect(lines.some((line) => line.includes("send_email binding called"))).toBe(true);
  });
});
