// Paying settlements out through a port: the real provider in production (not
// built yet: no provider is named), a simulated one in development and tests.
// Each pending or failed settlement is claimed (attempts + 1, only if nobody
// claimed it meanwhile), sent with its reference as the idempotency key, and
// marked paid only from a state that is not paid: money is never paid twice,
// and a failure is recorded and retried on the next run, up to MAX_ATTEMPTS.

export const MAX_PAYOUT_ATTEMPTS = 5;
/** How long one run may hold a payout before another may try it again. */
export const PAYOUT_LEASE_MS = 5 * 60_000;

export interface Payout {
  reference: string;
  amount: number;
  provider: string;
  accountNumber: string;
  accountName: string;
}

export type PayoutOutcome = { ok: true } | { ok: false; error: string };

export interface PayoutPort {
  kind: string;
  /** Must be idempotent on `reference`: paying the same reference twice pays once. */
  pay(payout: Payout): Promise<PayoutOutcome>;
}

/**
 * Development's provider: remembers what it paid (KV), so a repeat reference
 * is "already paid" rather than paid again; fails a first attempt now and then
 * (about one in five, decided by the reference) so retries can be seen.
 */
export function simulatedPayouts(kv: KVNamespace): PayoutPort {
  return {
    kind: "simulated",
    async pay(payout) {
      const key = `payout:${payout.reference}`;
      const seen = await kv.get(key);
      if (seen === "paid") return { ok: true };
      let hash = 0;
      for (const char of payout.reference) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
      if (seen === null && hash % 5 === 0) {
        await kv.put(key, "failed-once", { expirationTtl: 30 * 86_400 });
        return { ok: false, error: "Simulated provider: the bank did not answer in time" };
      }
      await kv.put(key, "paid", { expirationTtl: 365 * 86_400 });
      return { ok: true };
    },
  };
}

interface Due {
  id: string;
  businessId: string;
  reference: string;
  net: number;
  attempts: number;
  provider: string;
  accountNumber: string;
  accountName: string;
}

export interface PayoutRunResult {
  paid: string[];
  failed: { id: string; error: string }[];
}

/** Pays what is due (pending, or failed with attempts left), oldest first, at most `limit`. */
export async function processPayouts(db: D1Database, port: PayoutPort, options: { businessId?: string; limit?: number } = {}): Promise<PayoutRunResult> {
  const result: PayoutRunResult = { paid: [], failed: [] };
  const scope = options.businessId ? "AND s.business_id = ?" : "";
  const { results } = await db
    .prepare(
      `SELECT s.id, s.business_id AS businessId, s.reference, s.net, s.attempts, a.provider, a.account_number AS accountNumber, a.account_name AS accountName
       FROM settlements s JOIN settlement_accounts a ON a.id = s.settlement_account_id
       WHERE s.status IN ('pending', 'failed') AND s.attempts < ? AND (s.payout_lease_until IS NULL OR s.payout_lease_until < ?) ${scope} ORDER BY s.created_at LIMIT ?`,
    )
    .bind(MAX_PAYOUT_ATTEMPTS, new Date().toISOString(), ...(options.businessId ? [options.businessId] : []), options.limit ?? 50)
    .all<Due>();
  for (const due of results) {
    // Claim it for the length of the call: another runner finds the lease (or the
    // changed attempts) and leaves it, so one payout is with the provider at a time.
    const now = Date.now();
    const claimed = await db
      .prepare(
        `UPDATE settlements SET attempts = attempts + 1, payout_lease_until = ?
         WHERE id = ? AND status IN ('pending', 'failed') AND attempts = ? AND (payout_lease_until IS NULL OR payout_lease_until < ?) RETURNING attempts`,
      )
      .bind(new Date(now + PAYOUT_LEASE_MS).toISOString(), due.id, due.attempts, new Date(now).toISOString())
      .first<{ attempts: number }>();
    if (!claimed) continue;
    const at = new Date().toISOString();
    let outcome: PayoutOutcome;
    try {
      outcome =
        due.net === 0
          ? { ok: true }
          : await port.pay({
              reference: due.reference,
              amount: due.net,
              provider: due.provider,
              accountNumber: due.accountNumber,
              accountName: due.accountName,
            });
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const record = db
      .prepare("INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(due.businessId, due.id, claimed.attempts, outcome.ok ? "paid" : "failed", outcome.ok ? null : outcome.error.slice(0, 300), at);
    if (outcome.ok) {
      await db.batch([
        db.prepare("UPDATE settlements SET status = 'paid', paid_at = ?, payout_lease_until = NULL WHERE id = ? AND status <> 'paid'").bind(at, due.id),
        record,
      ]);
      result.paid.push(due.id);
    } else {
      await db.batch([
        db.prepare("UPDATE settlements SET status = 'failed', payout_lease_until = NULL WHERE id = ? AND status <> 'paid'").bind(due.id),
        record,
      ]);
      result.failed.push({ id: due.id, error: outcome.error });
    }
  }
  return result;
}
