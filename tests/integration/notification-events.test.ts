// The notices besides requests (decision 053), against the built Worker's database: a person added, moved to another
// role or removed hears of it by email and by SMS at the number the inviter typed; sign-in security (a new browser, a
// factor added, sign-out everywhere) always reaches the person, whatever they chose; failed payouts of a settlement
// run, failed refunds and a disabled webhook endpoint reach the roles whose work they are, by their role's defaults;
// SMS waits out Accra's quiet hours but for security; the hourly cap folds the rest into the 07:00 digest, which also
// tells those who chose it instead of an email each; a test business's request tells the live business's people,
// marked as test; and a change through the Worker hands its business to the notifications queue.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approveRequest, requestChange } from "#server/approvals/approvals.db";
import { signInAuditStatement } from "#server/audit/audit.db";
import { writeDigests } from "#server/notifications/digest.db";
import { emailPortFor, type EmailPort } from "#server/notifications/email";
import { fanOut } from "#server/notifications/fan-out.db";
import { preferencesOf, setPreferences } from "#server/notifications/preferences.db";
import { sendDueNotices } from "#server/notifications/send";
import { HOURLY_CAP } from "#server/notifications/pacing";
import { DEV_SESSION_SECRET } from "#server/env";
import type { SmsMessage, SmsPort } from "#server/sms/port";
import { testBusinessOf } from "#server/tenancy/test-mode";
import type { BusinessDb } from "#server/tenancy/tenant";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, AMA_KUMASI, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { NOTIFICATIONS_QUEUE } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const business = (): BusinessDb => ({ businessId: KUMASI, db: AMA_KUMASI.db });
const HOUR = 3_600_000;
/** 10:00 in Accra on a day of its own for each test (deliveries due by then are sent; nothing else counts toward the cap). */
let day = Date.UTC(2027, 0, 4, 10);
const nextDay = () => (day += 24 * HOUR);

const texts: SmsMessage[] = [];
const sms: SmsPort = {
  kind: "gateway",
  async send(message) {
    texts.push(message);
  },
};
let email: EmailPort;
const settings = () => ({ email, sms, portalUrl: "https://portal.example", linkSecret: DEV_SESSION_SECRET });

/** Sends everything due at `now`, as often as the sender takes more. */
async function sendAll(now: number, target: BusinessDb = business()) {
  const total = { sent: 0, folded: 0, later: 0 };
  for (;;) {
    const run = await sendDueNotices(target, settings(), now);
    total.sent += run.sent;
    total.folded += run.folded;
    total.later += run.later;
    if (run.sent + run.folded + run.later + run.retrying + run.dead === 0) return total;
  }
}

async function noticesWith(keyPrefix: string, target: BusinessDb = business()) {
  const { results } = await target.db
    .prepare(
      `SELECT n.id, n.user_id, n.kind, n.title, n.body, n.event_key,
         (SELECT group_concat(d.channel || '=' || d.address || '=' || d.status, ' ') FROM notification_deliveries d WHERE d.notification_id = n.id) AS deliveries
       FROM notifications n WHERE n.business_id = ? AND substr(n.event_key, 1, length(?2)) = ?2 ORDER BY n.user_id, n.event_key`,
    )
    .bind(target.businessId, keyPrefix)
    .all<{ id: string; user_id: string; kind: string; title: string; body: string; event_key: string; deliveries: string | null }>();
  return results;
}

/** A settlement account of the seed's, with its merchant. */
async function settlementAccount(): Promise<{ id: string; merchant_id: string }> {
  return (await AMA_KUMASI.db
    .prepare("SELECT id, merchant_id FROM settlement_accounts WHERE business_id = ? AND status = 'active' ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ id: string; merchant_id: string }>())!;
}

beforeAll(async () => {
  email = emailPortFor({ provider: "outbox" }, { DB: await portal().db() });
  // What the template's records would tell is told and sent first, so each test sees its own.
  while ((await fanOut(business())) > 0);
  await sendAll(day);
});

beforeEach(async () => {
  nextDay();
  // Each test starts from everyone's defaults, with what earlier tests left due sent before its hour.
  await AMA_KUMASI.db.prepare("DELETE FROM notification_preferences WHERE business_id = ?").bind(KUMASI).run();
  await sendAll(day - 2 * HOUR);
  texts.length = 0;
});

describe("people", () => {
  it("tells a person added, their role changed and their removal, by email and SMS to the number the inviter typed", async () => {
    const core = portal().core();
    const invited = await requestChange(KOFI_KUMASI, META, {
      kind: "employee",
      action: "create",
      after: { email: "akosua.nyarko@example.com", name: "Akosua Nyarkoɔ", gender: "female", phone: "233245551234", role: "Operations" },
    });
    await approveRequest(AMA_KUMASI, META, invited, { core });
    const userId = (await AMA_KUMASI.db.prepare("SELECT id FROM users WHERE email = 'akosua.nyarko@example.com'").first<string>("id"))!;
    await approveRequest(
      AMA_KUMASI,
      META,
      await requestChange(KOFI_KUMASI, META, { kind: "employee", action: "update", targetId: userId, after: { role: "Finance" } }),
      { core },
    );
    await approveRequest(AMA_KUMASI, META, await requestChange(KOFI_KUMASI, META, { kind: "employee", action: "deactivate", targetId: userId }), { core });
    // Decisions are told for a day after them: this run is now, as the Worker's after the last approval.
    await fanOut(business(), { scope: "change" });
    const notices = (await noticesWith("member.")).filter((n) => n.user_id === userId);
    expect(notices.map((n) => [n.kind, n.title])).toEqual(
      expect.arrayContaining([
        ["member.added", "You were added to Kumasi Fresh Foods"],
        ["member.role_changed", "Your role was changed"],
        ["member.removed", "You were removed from Kumasi Fresh Foods"],
      ]),
    );
    expect(notices).toHaveLength(3);
    expect(notices.find((n) => n.kind === "member.added")!.body).toBe("Kofi Boateng added you to Kumasi Fresh Foods as Operations. Sign in to start.");
    for (const notice of notices) {
      expect(notice.deliveries).toContain("email=akosua.nyarko@example.com=pending");
      expect(notice.deliveries).toContain("sms=233245551234=pending");
    }
    await sendAll(day);
    const hers = texts.filter((text) => text.to === "233245551234").map((text) => text.body);
    expect(hers).toHaveLength(3);
    expect(hers).toContain(
      "Partners Portal, Kumasi Fresh Foods: You were removed from Kumasi Fresh Foods. Kofi Boateng removed your access to Kumasi Fresh Foods.",
    );
    for (const body of hers) expect(body).not.toMatch(/https?:|\d{7}/);
    // Told once: another run writes nothing.
    expect(await fanOut(business(), { scope: "change" })).toBe(0);
  });
});

describe("security", () => {
  const core = () => portal().core();
  async function session(userId: string, userAgent: string, at: number): Promise<string> {
    const id = `ses_notice_${userAgent.length}_${at}`;
    await core()
      .prepare(
        "INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at) VALUES (?, ?, 'userUniqueEmail', 'business_chosen', ?, ?, ?, ?, ?)",
      )
      .bind(id, userId, KUMASI, META.ip, userAgent, new Date(at).toISOString(), new Date(at + 3 * HOUR).toISOString())
      .run();
    await signInAuditStatement(
      { userId, businessId: KUMASI },
      core(),
      { ...META, userAgent },
      { action: "auth.business_chosen", entity: "session", entityId: id },
      new Date(at).toISOString(),
    ).run();
    return id;
  }

  it("tells of a sign-in from a browser the person never used, not of one they did, and always, whatever they chose", async () => {
    const firefox = `Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0 ${day}`;
    const chrome = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 ${day}`;
    // Esi tries to turn the security notice off: it cannot be.
    await setPreferences(ESI_KUMASI, ESI_KUMASI.userId, [{ kind: "security.sign_in", channel: "email", wanted: false }], day);
    expect((await preferencesOf(ESI_KUMASI, ESI_KUMASI.userId, ESI_KUMASI.role))["security.sign_in"].email).toBe(true);
    await session(ESI_KUMASI.userId, `Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1 ${day}`, day - 3 * HOUR);
    const first = await session(ESI_KUMASI.userId, chrome, day - 2 * HOUR);
    const again = await session(ESI_KUMASI.userId, chrome, day - HOUR);
    const other = await session(ESI_KUMASI.userId, firefox, day - 30 * 60_000);
    await fanOut(business(), { scope: "change", now: day, core: core() });
    const told = async (sessionId: string) => noticesWith(`security:auth.business_chosen:${sessionId}:`);
    // Chrome's first sign-in was new (Esi had signed in before, on her iPhone); its second was not; Firefox's was.
    expect(await told(first)).toHaveLength(1);
    expect(await told(again)).toEqual([]);
    const [firefoxNotice] = await told(other);
    expect(firefoxNotice!.title).toBe("A sign-in from a new browser");
    expect(firefoxNotice!.body).toMatch(
      /^You signed in from a browser not used before \(Firefox on Android, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}\)\. If this was not you/,
    );
    expect(firefoxNotice!.deliveries).toBe("email=esi.owusu@example.com=pending");
  });

  it("sends a factor's change by SMS at once, even in the quiet hours and over the hourly cap", async () => {
    const night = day + 13 * HOUR; // 23:00 in Accra
    const phone = (await core()
      .prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY created_at, msisdn LIMIT 1")
      .bind(KOFI_KUMASI.userId)
      .first<string>("msisdn"))!;
    await signInAuditStatement(
      { userId: KOFI_KUMASI.userId, businessId: KUMASI },
      core(),
      META,
      { action: "auth.passkey.added", entity: "passkey", entityId: `pk_${night}` },
      new Date(night).toISOString(),
    ).run();
    // Kofi already had his hour's texts.
    await AMA_KUMASI.db
      .prepare(
        `INSERT INTO notification_deliveries (id, business_id, notification_id, user_id, channel, address, status, attempts, next_attempt_at, created_at, sent_at)
         SELECT 'ndl_cap_' || n.id, n.business_id, n.id, n.user_id, 'sms', ?, 'sent', 1, ?2, ?2, ?2 FROM notifications n
         WHERE n.business_id = ? AND n.user_id = ? AND NOT EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id AND d.channel = 'sms') LIMIT ?`,
      )
      .bind(phone, new Date(night - 60_000).toISOString(), KUMASI, KOFI_KUMASI.userId, HOURLY_CAP.sms)
      .run();
    await fanOut(business(), { scope: "change", now: night, core: core() });
    const [added] = await noticesWith(`security:auth.passkey.added:pk_${night}`);
    expect(added!.title).toBe("A passkey was added");
    expect(added!.deliveries).toContain(`sms=${phone}=pending`);
    await sendAll(night);
    const sent = texts.filter((t) => t.to === phone && t.body.includes("A passkey was added"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatch(/^Partners Portal, Kumasi Fresh Foods: A passkey was added\. A passkey was added to your sign-in \(/);
  });
});

describe("money and endpoints", () => {
  it("tells Finance of a settlement run's failed payouts once for the run, a failed refund, and those who manage the API of a disabled endpoint", async () => {
    const db = AMA_KUMASI.db;
    const account = await settlementAccount();
    const at = new Date(day - HOUR).toISOString();
    for (const n of [1, 2]) {
      const id = `stl_notice_${day}_${n}`;
      const period = Date.UTC(2090, 0, 1) + (day % 1_000_000) * 1000 + n * 24 * HOUR;
      await db.batch([
        db
          .prepare(
            `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at)
             VALUES (?, ?, ?, ?, ?, ?, 50000, 875, 49125, 'failed', ?, 1, ?)`,
          )
          .bind(id, KUMASI, account.merchant_id, account.id, period, period + 24 * HOUR, `KFF-STL-${day}-${n}`, at),
        db
          .prepare(
            "INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, 1, 'failed', 'Account 1021300456 closed', ?)",
          )
          .bind(KUMASI, id, at),
      ]);
    }
    const payment = (await db
      .prepare("SELECT id, merchant_id, amount FROM transactions WHERE business_id = ? AND status = 'successful' ORDER BY id LIMIT 1")
      .bind(KUMASI)
      .first<{ id: number; merchant_id: string; amount: number }>())!;
    const refund = `rfd_notice_${day}`;
    await db
      .prepare(
        `INSERT INTO refunds (id, business_id, transaction_id, merchant_id, amount, reason, status, idempotency_key, requested_by, approved_by, created_at, decided_at, completed_at, failure_reason)
         VALUES (?, ?, ?, ?, 100, 'Customer returned goods', 'failed', ?, ?, ?, ?, ?, ?, 'The payer''s wallet 0244123456 is closed')`,
      )
      .bind(refund, KUMASI, payment.id, payment.merchant_id, refund, ESI_KUMASI.userId, KOFI_KUMASI.userId, at, at, at)
      .run();
    const endpoint = `we_notice_${day}`;
    await db
      .prepare(
        `INSERT INTO webhook_endpoints (id, business_id, url, event_types, secret, status, disabled_reason, disabled_at, created_at, updated_at)
         VALUES (?, ?, 'https://hooks.example.com/partner/tok_secret_123', '["*"]', 'whsec_x', 'disabled', 'Disabled automatically: every delivery failed for 24 hours.', ?, ?, ?)`,
      )
      .bind(endpoint, KUMASI, day - HOUR, at, at)
      .run();
    await fanOut(business(), { now: day });
    await fanOut(business(), { now: day + 60_000 });

    const run = await noticesWith(`settlement.failed:${at.slice(0, 10)}`);
    // Finance gets it by email; the administrators see it under the bell (theirs to turn on).
    expect(run.map((n) => n.user_id).sort()).toEqual([ABENA_KUMASI.userId, AMA_KUMASI.userId, KOFI_KUMASI.userId].sort());
    const abenas = run.find((n) => n.user_id === ABENA_KUMASI.userId)!;
    expect(abenas.title).toBe("A settlement run finished with failed payouts");
    expect(abenas.body).toMatch(/finished with 2 of \d+ payouts failed \(GHS 982\.50 not paid out\)\.$/);
    expect(abenas.deliveries).toBe("email=abena.darko@example.com=pending");
    expect(run.find((n) => n.user_id === AMA_KUMASI.userId)!.deliveries).toBeNull();

    const refunds = await noticesWith(`refund.failed:${refund}`);
    expect(refunds.map((n) => n.user_id)).toContain(ABENA_KUMASI.userId);
    expect(refunds[0]!.body).toContain("failed: The payer's wallet ••••3456 is closed. The money is back in the balance.");

    const endpoints = await noticesWith(`webhook.disabled:${endpoint}`);
    expect(endpoints.map((n) => n.user_id).sort()).toEqual([AMA_KUMASI.userId, KOFI_KUMASI.userId].sort());
    expect(endpoints[0]!.body).toBe(
      "The endpoint at hooks.example.com was disabled: Disabled automatically: every delivery failed for 24 hours.. Events wait until it is enabled again.",
    );
    expect(endpoints[0]!.body).not.toContain("tok_secret");
  });
});

describe("a transfer's payout and a failing endpoint", () => {
  it("tells Finance a transfer's payout failed, once an attempt, and the administrators of an endpoint failing for an hour, once a day", async () => {
    const db = AMA_KUMASI.db;
    const account = await settlementAccount();
    const at = new Date(day - HOUR).toISOString();
    const transfer = `trf_notice_${day}`;
    const payout = `stl_trf_notice_${day}`;
    await db.batch([
      db
        .prepare(
          `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, amount, status, idempotency_key, requested_by, approved_by, created_at, decided_at)
           VALUES (?, ?, ?, ?, 250000, 'completed', ?, ?, ?, ?, ?)`,
        )
        .bind(transfer, KUMASI, account.merchant_id, account.id, transfer, ABENA_KUMASI.userId, KOFI_KUMASI.userId, at, at),
      db
        .prepare(
          `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, transfer_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 250000, 0, 250000, 'failed', ?, 2, ?)`,
        )
        .bind(payout, KUMASI, account.merchant_id, account.id, transfer, day - HOUR, day - HOUR, `KFF-TRF-${day}`, at),
      db
        .prepare(
          "INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, 1, 'failed', 'Timed out', ?), (?, ?, 2, 'failed', 'Account name does not match', ?)",
        )
        .bind(KUMASI, payout, at, KUMASI, payout, at),
    ]);
    const endpoint = `we_failing_${day}`;
    await db.batch([
      db
        .prepare(
          `INSERT INTO webhook_endpoints (id, business_id, url, event_types, secret, status, created_at, updated_at)
           VALUES (?, ?, 'https://erp.example.com/hooks', '["*"]', 'whsec_y', 'enabled', ?, ?)`,
        )
        .bind(endpoint, KUMASI, at, at),
      db
        .prepare("INSERT INTO webhook_events (id, business_id, type, payload, created_at, happened_at) VALUES (?, ?, 'payment.succeeded', '{}', ?, ?)")
        .bind(`evt_failing_${day}`, KUMASI, day - 2 * HOUR, day - 2 * HOUR),
    ]);
    const event = `evt_failing_${day}`;
    await db
      .prepare(
        `INSERT INTO webhook_deliveries (id, business_id, endpoint_id, event_id, status, attempts, next_attempt_at, last_status, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', 3, ?, 500, ?, ?)`,
      )
      .bind(`whd_failing_${day}`, KUMASI, endpoint, event, day + HOUR, day - 2 * HOUR, day)
      .run();
    await fanOut(business(), { now: day });
    await fanOut(business(), { now: day + 30 * 60_000 });

    const payouts = await noticesWith(`payout.failed:${payout}:`);
    expect(payouts.map((n) => n.user_id).sort()).toEqual([ABENA_KUMASI.userId, AMA_KUMASI.userId, KOFI_KUMASI.userId].sort());
    const abenas = payouts.find((n) => n.user_id === ABENA_KUMASI.userId)!;
    expect(abenas.event_key).toBe(`payout.failed:${payout}:2`);
    expect(abenas.body).toMatch(/^GHS 2,500\.00 to .+ \(KFF-TRF-\d+\) did not go through: Account name does not match\.$/);
    expect(abenas.deliveries).toBe("email=abena.darko@example.com=pending");

    const failing = await noticesWith(`webhook.failing:${endpoint}:`);
    expect(failing.map((n) => n.user_id).sort()).toEqual([AMA_KUMASI.userId, KOFI_KUMASI.userId].sort());
    expect(failing[0]!.title).toBe("A webhook endpoint keeps failing");
    // Once a day: the next day's run tells again only if it still fails.
    expect(failing.every((n) => n.event_key === `webhook.failing:${endpoint}:${new Date(day).toISOString().slice(0, 10)}`)).toBe(true);
  });
});

describe("silent terminals", () => {
  it("are told in the 07:00 digest to those who look after terminals, Operations by default", async () => {
    const db = AMA_KUMASI.db;
    const terminal = (await db
      .prepare("SELECT id FROM terminals WHERE business_id = ? AND status = 'active' ORDER BY serial LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string }>())!;
    await db
      .prepare("UPDATE terminals SET last_seen_at = ? WHERE id = ?")
      .bind(day - 3 * 24 * HOUR, terminal.id)
      .run();
    const morning = day - 3 * HOUR; // 07:00
    expect(await writeDigests(business(), morning)).toBeGreaterThanOrEqual(1);
    const digests = await noticesWith(`digest:${new Date(morning).toISOString().slice(0, 10)}`);
    const esis = digests.find((n) => n.user_id === ESI_KUMASI.userId)!;
    const silent = await AMA_KUMASI.db
      .prepare("SELECT count(*) AS n FROM terminals WHERE business_id = ? AND status IN ('assigned', 'active') AND coalesce(last_seen_at, 0) < ?")
      .bind(KUMASI, morning - 24 * HOUR)
      .first<number>("n");
    expect(silent).toBeGreaterThanOrEqual(1);
    expect(esis.body).toMatch(
      /^(\d+ requests? waits? for your decision\.\n)?\d+ terminals? (is|are) silent \(not seen for a day\): POS Terminals, Silent, lists them\.$/m,
    );
    expect(esis.deliveries).toBe("email=esi.owusu@example.com=pending");
    // Finance does not look after terminals: no digest for Abena from them.
    expect(digests.find((n) => n.user_id === ABENA_KUMASI.userId)).toBeUndefined();
  });
});

describe("pacing and the digest", () => {
  async function waitingFor(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      ids.push(
        await requestChange(ESI_KUMASI, META, {
          kind: "point_of_sale",
          action: "create",
          after: {
            merchant_id: (await AMA_KUMASI.db
              .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY id LIMIT 1")
              .bind(KUMASI)
              .first<string>("id"))!,
            name: `Ɛkuona Branch 🌶 ${day}-${i}`,
            address: "Adum, Kumasi",
            town: "Kumasi",
            region: "Ashanti",
            contact_phone: "233244000333",
          },
        }),
      );
    }
    return ids;
  }

  it("SMS waits for 07:00 in the quiet hours; the hourly cap folds the rest into the digest, which is never held back", async () => {
    await setPreferences(KOFI_KUMASI, KOFI_KUMASI.userId, [{ kind: "request.waiting", channel: "sms", wanted: true }], day);
    const night = day + 12 * HOUR; // 22:00 in Accra
    const ids = await waitingFor(HOURLY_CAP.email + 2);
    await fanOut(business(), { now: night, scope: "change" });
    const first = await sendAll(night);
    // Kofi's texts wait for the morning; his and Ama's emails stop at the cap, the rest folded.
    expect(texts.filter((t) => t.body.includes("waits for your decision"))).toEqual([]);
    expect(first.later).toBeGreaterThanOrEqual(ids.length);
    expect(first.folded).toBe(2 * 2);
    const morning = Date.UTC(new Date(night).getUTCFullYear(), new Date(night).getUTCMonth(), new Date(night).getUTCDate() + 1, 7);
    expect((await sendAll(morning - 60_000)).sent).toBe(0);
    const atSeven = await sendAll(morning);
    expect(atSeven.sent).toBe(HOURLY_CAP.sms);
    expect(atSeven.folded).toBe(ids.length - HOURLY_CAP.sms);
    // The digest at 07:00: Kofi's held-back emails and texts, and what waits, in one email sent whatever his count.
    expect(await writeDigests(business(), morning)).toBeGreaterThanOrEqual(2);
    expect(await writeDigests(business(), morning + 60_000)).toBe(0);
    const digests = await noticesWith(`digest:${new Date(morning).toISOString().slice(0, 10)}`);
    const kofis = digests.find((n) => n.user_id === KOFI_KUMASI.userId)!;
    expect(kofis.title).toMatch(/^Your digest for \d{2} [A-Z][a-z]{2} \d{4}$/);
    expect(kofis.body).toMatch(
      /^\d+ requests wait for your decision\.\n• A request waits for your decision: Esi Owusu asks to add a point of sale: Ɛkuona Branch 🌶/,
    );
    await sendAll(morning + 60_000);
    const [sent] = await noticesWith(`digest:${new Date(morning).toISOString().slice(0, 10)}`).then((all) =>
      all.filter((n) => n.user_id === KOFI_KUMASI.userId),
    );
    expect(sent!.deliveries).toBe("email=kofi.boateng@example.com=sent");
  });

  it("tells those who chose the digest there instead of an email for each request", async () => {
    await setPreferences(AMA_KUMASI, AMA_KUMASI.userId, [{ kind: "digest", channel: "email", wanted: true }], day);
    const [id] = await waitingFor(1);
    await fanOut(business(), { now: day, scope: "change" });
    const notices = await AMA_KUMASI.db
      .prepare(
        `SELECT n.user_id, (SELECT count(*) FROM notification_deliveries d WHERE d.notification_id = n.id) AS deliveries FROM notifications n
         WHERE n.business_id = ? AND n.event_key = ?`,
      )
      .bind(KUMASI, `request.waiting:${id}`)
      .all<{ user_id: string; deliveries: number }>();
    expect(Object.fromEntries(notices.results.map((n) => [n.user_id, n.deliveries]))).toEqual({ [AMA_KUMASI.userId]: 0, [KOFI_KUMASI.userId]: 1 });
  });
});

describe("test mode", () => {
  it("tells the live business's people of a test business's request, and marks its email as test", async () => {
    // Opening test mode the way a person does (the switcher), which makes the test business.
    const cookie = await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI);
    const opened = await portal().fetch("/select-business", {
      method: "POST",
      redirect: "manual",
      headers: { ...cookie, Origin: portal().url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ businessId: testBusinessOf(KUMASI) }).toString(),
    });
    expect(opened.status).toBe(302);
    const test: BusinessDb = { businessId: testBusinessOf(KUMASI), db: AMA_KUMASI.db };
    const id = await requestChange({ ...ESI_KUMASI, businessId: test.businessId }, META, {
      kind: "merchant",
      action: "create",
      after: {
        code: `MER-T${String(day).slice(-5)}`,
        name: `Ɔsono Test Traders ${day.toString(36)} 🐘`,
        trading_name: "Ɔsono",
        tin: `C${String(day).slice(-10)}`,
        sector: "Retail",
        town: "Kumasi",
        region: "Ashanti",
        address: "1 Test Road",
        contact_name: "Yaw Ŋkrumah",
        contact_phone: "233244000111",
        contact_email: "osono@example.com",
      },
    });
    await fanOut(test, { now: day, scope: "change" });
    const told = await noticesWith(`request.waiting:${id}`, test);
    expect(told.map((n) => n.user_id).sort()).toEqual([AMA_KUMASI.userId, KOFI_KUMASI.userId].sort());
    await sendAll(day, test);
    const outbox = await (
      await portal().db()
    )
      .prepare("SELECT id, to_address, subject, text FROM dev_email_outbox WHERE instr(text, ?) > 0 ORDER BY id")
      .bind(`Ɔsono Test Traders ${day.toString(36)}`)
      .all<{ id: number; to_address: string; subject: string; text: string }>();
    const emails = outbox.results;
    expect(emails.map((e) => [e.to_address, e.subject]).sort()).toEqual([
      ["ama.mensah@example.com", "[Test] A request waits for your decision"],
      ["kofi.boateng@example.com", "[Test] A request waits for your decision"],
    ]);
    expect(emails[0]!.text).toContain("Test mode: nothing here touches live money.");
  });
});

describe("the notifications queue", () => {
  const spied = usePortal({ spyOnQueue: NOTIFICATIONS_QUEUE });
  it("a change through the Worker hands its business to the queue", async () => {
    const db = spied().businessDb(KUMASI);
    await requestChange({ ...ESI_KUMASI, db }, META, {
      kind: "merchant",
      action: "deactivate",
      targetId: (await db
        .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY id DESC LIMIT 1")
        .bind(KUMASI)
        .first<string>("id"))!,
    });
    const cookie = await signedInCookie(spied(), "esi.owusu@example.com", KUMASI);
    const marked = await spied().fetch("/notifications", {
      method: "POST",
      headers: { ...cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: spied().url },
      body: "intent=mark-all-read",
      redirect: "manual",
    });
    expect(marked.status).toBe(302);
    let queued: unknown[] = [];
    for (let tries = 0; tries < 100 && queued.length === 0; tries += 1) {
      queued = await spied().queued();
      if (queued.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(queued).toContainEqual({ businessId: KUMASI });
  });
});
