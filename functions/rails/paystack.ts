// Paystack Transfers as a payout rail (PAYOUT_RAIL=paystack; docs/decisions/041-payout-and-refund-rails.md says which
// pages were read and what could not be verified offline). GHS to a bank account (recipient type `ghipss`) or a
// mobile-money wallet (`mobile_money`): a transfer recipient is created once per account (its code cached in KV), then
// `POST /transfer` from the balance under a reference derived from the attempt's key, `GET /transfer/verify/:reference`
// to poll, and the `transfer.*` webhook (functions/rails/callbacks.ts). As with the switch, an answer we cannot read
// (a timeout, a 5xx, a 429, a reply that does not parse) to the request that moves money is *pending*, never failed:
// it is polled, never sent again under a new key, so an answer that never comes cannot pay twice.
import * as v from "valibot";
import type { PaystackRail } from "../env";
import { sha256Hex } from "../plumbing/sha256";
import type { Payout, PayoutPort } from "../settlement/payouts";
import { parseRailKey, railKey, type RailAnswer } from "./answer";
import type { Fetch } from "./switch";

const TIMEOUT_MS = 15_000;
const RECIPIENT_CACHE_SECONDS = 180 * 86_400;

// ------------------------------------------------------------------------------------------------- bank codes
/**
 * The `bank_code` Paystack takes for each provider a settlement account can name (app/routes/merchants/merchant-forms.ts BANKS and
 * MOBILE_NETWORKS). Wallets: Paystack's Ghana telco codes (MTN, ATL for AirtelTigo, VOD for Telecel, formerly Vodafone).
 * Banks: the GhIPSS sort codes; only those a stored page showed are listed (decision 041), so a bank without one fails
 * by name instead of being paid to a guessed code. Check both against `GET /bank?currency=GHS&type=…` with a live key.
 */
export const PAYSTACK_BANK_CODES: Readonly<Record<string, { type: "ghipss" | "mobile_money"; code: string }>> = {
  MTN: { type: "mobile_money", code: "MTN" },
  AirtelTigo: { type: "mobile_money", code: "ATL" },
  Telecel: { type: "mobile_money", code: "VOD" },
  "Absa Bank Ghana": { type: "ghipss", code: "030100" },
  "Access Bank Ghana": { type: "ghipss", code: "280100" },
  "Ecobank Ghana": { type: "ghipss", code: "130100" },
  "GCB Bank": { type: "ghipss", code: "040100" },
  "Stanbic Bank Ghana": { type: "ghipss", code: "190100" },
  "Standard Chartered Bank Ghana": { type: "ghipss", code: "020100" },
  "Zenith Bank Ghana": { type: "ghipss", code: "120100" },
};

// -------------------------------------------------------------------------------------------------- references
/**
 * Paystack's transfer reference: 16 to 50 characters, lowercase letters, digits, "-" and "_" (api/transfer, "Initiate
 * Transfer"). Our keys are the settlement reference (STL-<merchant code>-<yyyymmdd>: uppercase letters, digits and
 * hyphens) with "-r<n>" for attempt n, so the reference is "pp-" + the base in lowercase, and "_r<n>" for attempt n:
 * the underscore never occurs in a base, so the mapping is one to one and read back without any table, and the "pp-"
 * prefix tells our transfers from others the same Paystack account makes (their webhooks are acknowledged, not applied).
 */
const PREFIX = "pp-";
const BASE = /^[A-Z0-9][A-Z0-9-]*$/;
const REFERENCE = /^pp-([a-z0-9][a-z0-9-]*)(?:_r(\d{1,3}))?$/;

/** The Paystack reference for an attempt key, or null when the key cannot be one (then nothing is sent). */
export function paystackReference(key: string): string | null {
  const { base, attempt } = parseRailKey(key);
  if (!BASE.test(base)) return null;
  const reference = `${PREFIX}${base.toLowerCase()}${attempt > 1 ? `_r${attempt}` : ""}`;
  return reference.length >= 16 && reference.length <= 50 ? reference : null;
}

/** The attempt key a Paystack reference stands for (paystackReference's inverse); null for a reference not ours. */
export function railKeyOfPaystackReference(reference: string): string | null {
  const match = REFERENCE.exec(reference);
  return match ? railKey(match[1]!.toUpperCase(), match[2] ? Number(match[2]) : 1) : null;
}

// ------------------------------------------------------------------------------------------------- the answers
/** The transfer object as a reply, the verify answer and a webhook's `data` carry it (only what we read). */
export const PaystackTransfer = v.object({
  reference: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  status: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  transfer_code: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  id: v.optional(v.nullable(v.number())),
  amount: v.optional(v.nullable(v.number())),
  currency: v.optional(v.nullable(v.string())),
  reason: v.optional(v.nullable(v.string())),
  failures: v.optional(v.unknown()),
  gateway_response: v.optional(v.nullable(v.string())),
});
export type PaystackTransfer = v.InferOutput<typeof PaystackTransfer>;

const Envelope = v.object({
  status: v.boolean(),
  message: v.optional(v.pipe(v.string(), v.maxLength(500)), ""),
  data: v.optional(v.unknown()),
});

const Recipient = v.object({ recipient_code: v.pipe(v.string(), v.regex(/^RCP_\w{1,60}$/)) });

/** Words that end a transfer without the money arriving: "failed" and "reversed" (documented events), and statuses
 *  Paystack's pages list for a transfer that never went through. Anything else not "success" is still on its way. */
const FAILED = new Set(["failed", "reversed", "abandoned", "rejected", "blocked"]);

/** A transfer's status as our answer. "otp" waits: only someone holding the OTP can finalize it, and a new attempt
 *  under a new reference could then pay twice; the error says what to change. */
export function paystackAnswer(transfer: PaystackTransfer): RailAnswer {
  const rail = { rail: "paystack", reference: transfer.transfer_code ?? null, status: transfer.status };
  if (transfer.status === "success") return { ok: true, rail };
  const why = transfer.gateway_response ?? transfer.reason ?? null;
  if (FAILED.has(transfer.status)) return { ok: false, error: `Paystack: transfer ${transfer.status}${why ? ` (${why.slice(0, 200)})` : ""}`, rail };
  if (transfer.status === "otp")
    return {
      ok: false,
      pending: true,
      error: "Paystack: the transfer waits for an OTP; turn off the OTP for API transfers on the Paystack dashboard",
      rail,
    };
  return { ok: false, pending: true, error: `Paystack: ${transfer.status}`, rail };
}

const unknown = (error: string, key: string): RailAnswer => ({
  ok: false,
  pending: true,
  error,
  rail: { rail: "paystack", reference: null, status: `no answer (${key})` },
});

const refused = (error: string, status: string): RailAnswer => ({ ok: false, error, rail: { rail: "paystack", reference: null, status } });

type Call = { kind: "answered"; status: number; body: v.InferOutput<typeof Envelope> } | { kind: "unknown"; why: string };

// ------------------------------------------------------------------------------------------------- the adapter
/** Paystack Transfers as the payout port; `kv` caches recipient codes so a recipient is not made for every payout. */
export function paystackPayouts(rail: PaystackRail, kv: KVNamespace, fetcher: Fetch = fetch): PayoutPort {
  async function call(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<Call> {
    let response: Response;
    try {
      response = await fetcher(`${rail.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${rail.secretKey}`,
          Accept: "application/json",
          ...(body ? { "Content-Type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: "unknown", why: `Paystack did not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    const text = await response.text();
    if (response.status >= 500 || response.status === 429) return { kind: "unknown", why: `Paystack answered ${response.status}` };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { kind: "unknown", why: `Paystack's answer (${response.status}) was not JSON` };
    }
    const envelope = v.safeParse(Envelope, json);
    if (!envelope.success) return { kind: "unknown", why: `Paystack's answer (${response.status}) did not match the documented envelope` };
    return { kind: "answered", status: response.status, body: envelope.output };
  }

  /** Refusal words for the person reading the settlement screen: the HTTP status first (401 a key refused), then Paystack's message. */
  const refusal = (what: string, status: number, message: string) =>
    status === 401
      ? `Paystack refused the secret key (401) ${what}: check PAYSTACK_SECRET_KEY`
      : `Paystack refused ${what} (${status}): ${message || "no reason given"}`;

  async function recipientFor(payout: Payout): Promise<{ code: string; cacheKey: string } | { answer: RailAnswer }> {
    const bank = PAYSTACK_BANK_CODES[payout.provider];
    if (!bank)
      return {
        answer: refused(
          `Paystack: no Paystack bank code is known for "${payout.provider}", so nothing was sent; pay this account through the switch, or add its code (functions/rails/paystack.ts) once checked`,
          "no bank code",
        ),
      };
    // Keyed by the account and by which Paystack account (a digest of the key, never the key), so a new key or a changed
    // account number makes a new recipient.
    const cacheKey = `paystack:recipient:${(await sha256Hex(`${rail.secretKey}|${bank.type}|${bank.code}|${payout.accountNumber}|${payout.accountName}`)).slice(0, 40)}`;
    const cached = await kv.get(cacheKey);
    if (cached) return { code: cached, cacheKey };
    const made = await call("POST", "/transferrecipient", {
      type: bank.type,
      name: payout.accountName,
      account_number: payout.accountNumber,
      bank_code: bank.code,
      currency: "GHS",
    });
    // Making a recipient moves no money: any trouble here is a definite failure of this attempt (retried by the next run).
    if (made.kind === "unknown") return { answer: refused(`${made.why} while creating the transfer recipient; nothing was sent`, "recipient not made") };
    const recipient = v.safeParse(Recipient, made.body.data);
    if (made.status >= 400 || !made.body.status || !recipient.success)
      return { answer: refused(refusal("the transfer recipient", made.status, made.body.message), `recipient refused ${made.status}`) };
    await kv.put(cacheKey, recipient.output.recipient_code, { expirationTtl: RECIPIENT_CACHE_SECONDS });
    return { code: recipient.output.recipient_code, cacheKey };
  }

  return {
    kind: "paystack",
    async pay(payout) {
      const key = railKey(payout.reference, payout.attempt ?? 1);
      const reference = paystackReference(key);
      if (!reference)
        return refused(
          `Paystack: the key ${key} cannot be made a Paystack transfer reference (16 to 50 lowercase letters, digits, - or _); nothing was sent`,
          "bad reference",
        );
      if (!Number.isSafeInteger(payout.amount) || payout.amount <= 0) return refused(`Paystack: ${payout.amount} is not an amount in pesewas`, "bad amount");
      const recipient = await recipientFor(payout);
      if ("answer" in recipient) return recipient.answer;
      const sent = await call("POST", "/transfer", {
        source: "balance",
        amount: payout.amount,
        recipient: recipient.code,
        reference,
        reason: payout.narration,
        currency: "GHS",
      });
      if (sent.kind === "unknown") return unknown(sent.why, key);
      const { status, body } = sent;
      if (status >= 400 || !body.status) {
        // The reference is taken by a transfer this attempt did not make: we never send a key twice (an unanswered send
        // waits for the poll), so it is another order's (a merchant code another business also uses, or another
        // deployment on the same Paystack account). This request moved nothing; waiting would read the other transfer.
        if (/duplicate|already/i.test(body.message))
          return refused(
            `Paystack already has a transfer under ${reference} that this attempt did not make (${body.message}); nothing was sent`,
            "reference taken",
          );
        // A recipient deleted on Paystack's side: forget it so the next attempt makes it again.
        if (/recipient/i.test(body.message)) await kv.delete(recipient.cacheKey);
        return refused(refusal("the transfer", status, body.message), `refused ${status}`);
      }
      const transfer = v.safeParse(PaystackTransfer, body.data);
      if (!transfer.success || transfer.output.reference !== reference) return unknown("Paystack's transfer answer did not match the documented transfer", key);
      return paystackAnswer(transfer.output);
    },
    async status(key) {
      const reference = paystackReference(key);
      if (!reference) return refused(`Paystack: the key ${key} was never a Paystack transfer reference`, "bad reference");
      const asked = await call("GET", `/transfer/verify/${encodeURIComponent(reference)}`);
      if (asked.kind === "unknown") return unknown(asked.why, key);
      // A reference Paystack never received: nothing moved, so a new attempt is safe (as the switch's 404).
      if (asked.status === 404) return refused("Paystack: no such transfer (never received)", "not found");
      if (asked.status >= 400 || !asked.body.status) return unknown(refusal("the status poll", asked.status, asked.body.message), key);
      const transfer = v.safeParse(PaystackTransfer, asked.body.data);
      if (!transfer.success || transfer.output.reference !== reference) return unknown("Paystack's verify answer did not match the documented transfer", key);
      return paystackAnswer(transfer.output);
    },
  };
}
