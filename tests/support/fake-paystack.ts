// A stand-in for Paystack Transfers (functions/rails/paystack.ts; decision 041): one node:http server on 127.0.0.1 that
// answers the three documented requests the way Paystack's API reference shows them (api/transfer-recipient "Create
// Transfer Recipient", api/transfer "Initiate Transfer" and "Verify Transfer"), and signs webhooks as
// paystack.com/docs/payments/webhooks says (x-paystack-signature: hex HMAC-SHA512 of the raw body with the secret key).
// It checks each request against the documented shape (method, path, Bearer key, content type, fields, the reference's
// characters and length, pesewas) and keeps every deviation in `violations`. Refusal words and codes the stored pages
// did not show are marked "assumed".
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

export const FAKE_PAYSTACK_SECRET_KEY = "sk_test_fakepaystack0123456789abcdef";

/**
 * ok: documented success; auth: the key is refused (401); balance: not enough balance (400); account: the account cannot
 * be resolved when the recipient is made (400); down: 503; hang: no answer; garbage: a 200 that is not JSON.
 */
export type PaystackMode = "ok" | "auth" | "balance" | "account" | "down" | "hang" | "garbage";
/** What a transfer is when it is made: "pending" (queued, the usual answer), "success", "failed" or "otp" (OTP required). */
export type PaystackTransferStatus = "pending" | "success" | "failed" | "otp" | "reversed";

export interface FakeTransfer {
  id: number;
  transfer_code: string;
  reference: string;
  amount: number;
  currency: string;
  recipient: string;
  reason: string;
  status: string;
}

export interface FakePaystack {
  url: string;
  mode: PaystackMode;
  /** The status of the next transfer made. */
  transferStatus: PaystackTransferStatus;
  recipients: Map<string, { type: string; bank_code: string; account_number: string; name: string }>;
  transfers: Map<string, FakeTransfer>;
  /** POST /transferrecipient requests received. */
  recipientRequests: number;
  /** POST /transfer requests received, in order (a repeat reference too). */
  sends: { reference: string; amount: number; recipient: string }[];
  violations: string[];
  /** The Worker's vars that point PAYOUT_RAIL=paystack at this fake. */
  vars(): Record<string, string>;
  /** Moves a transfer to a new status, as Paystack does when the bank answers. */
  settle(reference: string, status: string): FakeTransfer;
  /** The webhook Paystack would send about a transfer: its body and headers, signed with `key` (the right one by default). */
  webhook(event: string, reference: string, key?: string): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
  contentType?: string;
}

const fail = (status: number, message: string, extra: Record<string, unknown> = {}): Reply => ({ status, body: { status: false, message, ...extra } });

export function paystackSignatureOf(key: string, body: string): string {
  return createHmac("sha512", key).update(body).digest("hex");
}

export async function startFakePaystack(): Promise<FakePaystack> {
  let sequence = 0;
  const fake: FakePaystack = {
    url: "",
    mode: "ok",
    transferStatus: "pending",
    recipients: new Map(),
    recipientRequests: 0,
    transfers: new Map(),
    sends: [],
    violations: [],
    vars: () => ({}),
    settle(reference, status) {
      const transfer = fake.transfers.get(reference);
      if (!transfer) throw new Error(`fake Paystack: no transfer ${reference}`);
      transfer.status = status;
      return transfer;
    },
    webhook(event, reference, key = FAKE_PAYSTACK_SECRET_KEY) {
      const transfer = fake.transfers.get(reference);
      if (!transfer) throw new Error(`fake Paystack: no transfer ${reference}`);
      // The documented webhook body: the event's name and the transfer as the verify answer gives it.
      const body = JSON.stringify({ event, data: { ...transfer, domain: "test", source: "balance", failures: null, integration: { id: 463433 } } });
      return { body, headers: { "Content-Type": "application/json", "x-paystack-signature": paystackSignatureOf(key, body) } };
    },
    close: async () => undefined,
  };

  function route(request: IncomingMessage, path: string, text: string, problems: string[]): Reply {
    if (request.headers.authorization !== `Bearer ${FAKE_PAYSTACK_SECRET_KEY}` || fake.mode === "auth") return fail(401, "Invalid key"); // words assumed
    if (request.method === "POST") {
      if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push("Content-Type is not application/json");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        problems.push("the body is not JSON");
      }
      if (path === "/transferrecipient") {
        fake.recipientRequests += 1;
        if (body.type !== "ghipss" && body.type !== "mobile_money") problems.push(`type must be ghipss or mobile_money for GHS: ${String(body.type)}`);
        if (body.currency !== "GHS") problems.push("currency must be GHS");
        for (const field of ["name", "account_number", "bank_code"])
          if (typeof body[field] !== "string" || body[field] === "") problems.push(`${field} is required`);
        if (fake.mode === "account") return fail(400, "Cannot resolve account", { type: "validation_error", code: "invalid_bank_account" }); // assumed
        const details = { type: String(body.type), bank_code: String(body.bank_code), account_number: String(body.account_number), name: String(body.name) };
        // A duplicate account number returns the existing record (Create Transfer Recipient).
        const existing = [...fake.recipients].find(([, r]) => r.account_number === details.account_number && r.bank_code === details.bank_code);
        const code = existing?.[0] ?? `RCP_fake${(sequence += 1).toString(36).padStart(6, "0")}`;
        fake.recipients.set(code, details);
        return {
          status: 200,
          body: {
            status: true,
            message: "Transfer recipient created successfully",
            data: { active: true, currency: "GHS", domain: "test", id: sequence, name: details.name, recipient_code: code, type: details.type, details },
          },
        };
      }
      if (path === "/transfer") {
        if (body.source !== "balance") problems.push("source must be balance");
        if (body.currency !== "GHS") problems.push("currency must be GHS");
        if (!Number.isSafeInteger(body.amount) || (body.amount as number) <= 0) problems.push(`amount must be whole pesewas: ${String(body.amount)}`);
        if (typeof body.recipient !== "string" || !fake.recipients.has(body.recipient))
          problems.push(`recipient is not a recipient code made here: ${String(body.recipient)}`);
        // "min: 16 max: 50 … lowercase letters (a-z), digits (0-9) and these symbols: dash (-), underscore (_)".
        if (typeof body.reference !== "string" || !/^[a-z0-9_-]{16,50}$/.test(body.reference))
          problems.push(`reference breaks Paystack's rule: ${String(body.reference)}`);
        if (body.reason !== undefined && typeof body.reason !== "string") problems.push("reason must be text");
        const reference = String(body.reference);
        fake.sends.push({ reference, amount: Number(body.amount), recipient: String(body.recipient) });
        if (fake.transfers.has(reference)) return fail(400, "Duplicate Transfer Reference"); // words assumed
        if (fake.mode === "balance") return fail(400, "Your balance is not enough to fulfil this request", { type: "api_error", code: "insufficient_balance" }); // code assumed
        sequence += 1;
        const transfer: FakeTransfer = {
          id: 860_000_000 + sequence,
          transfer_code: `TRF_fake${sequence.toString(36).padStart(6, "0")}`,
          reference,
          amount: Number(body.amount),
          currency: "GHS",
          recipient: String(body.recipient),
          reason: typeof body.reason === "string" ? body.reason : "",
          status: fake.transferStatus,
        };
        fake.transfers.set(reference, transfer);
        const message = transfer.status === "otp" ? "Transfer requires OTP to continue" : "Transfer has been queued";
        return { status: 200, body: { status: true, message, data: { ...transfer, recipient: sequence, domain: "test", source: "balance", failures: null } } };
      }
    }
    const verify = /^\/transfer\/verify\/([^/]+)$/.exec(path);
    if (request.method === "GET" && verify) {
      const transfer = fake.transfers.get(decodeURIComponent(verify[1]!));
      if (!transfer) return fail(404, "Transfer not found"); // words assumed
      return { status: 200, body: { status: true, message: "Transfer retrieved", data: { ...transfer, domain: "test", source: "balance", failures: null } } };
    }
    problems.push(`${request.method} ${path}: not a documented Transfers request`);
    return fail(404, "Not found");
  }

  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (fake.mode === "hang") return;
      const path = new URL(request.url ?? "/", "http://fake").pathname;
      if (fake.mode === "down") {
        response.writeHead(503, { "Content-Type": "text/html" });
        response.end("<h1>503 Service Unavailable</h1>");
        return;
      }
      if (fake.mode === "garbage") {
        response.writeHead(200, { "Content-Type": "text/html" });
        response.end("<html>maintenance</html>");
        return;
      }
      const problems: string[] = [];
      const reply = route(request, path, text, problems);
      fake.violations.push(...problems);
      response.writeHead(reply.status, { "Content-Type": reply.contentType ?? "application/json" });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.vars = () => ({ PAYOUT_RAIL: "paystack", PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET_KEY, PAYSTACK_BASE_URL: fake.url });
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
