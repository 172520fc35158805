// Dispute evidence through the Partner API (decision 023) against the built Worker: POST /api/v1/disputes/{id}/evidence
// takes one file as multipart/form-data and runs the dispute page's own upload, so the type sniffing, the size limit and
// their words are the page's; another business's dispute is 404; the platform key's disputes scope allows it.
import { beforeAll, describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { NOT_ACCEPTED, TOO_LARGE } from "#server/disputes/evidence-upload";
import { topUp } from "../support/ledger";
import { answerOf, api, makeKey, makePlatformKeyFor } from "../support/partner-api";
import { ACCRA, KOFI_KUMASI, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let key = "";
const used = new Set<number>();
beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
});

/** An open dispute of a fresh payment of Kumasi, opened through the API. */
async function openDispute(): Promise<string> {
  const { results } = await (
    await portal().db()
  )
    .prepare(
      `SELECT t.id, t.reference, t.merchant_id AS merchantId FROM transactions t
       WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= 1000
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.business_id = t.business_id AND d.transaction_id = t.id)
       ORDER BY t.id LIMIT 200`,
    )
    .bind(KUMASI)
    .all<{ id: number; reference: string; merchantId: string }>();
  const payment = results.find((p) => !used.has(p.id) && cardNumberPaths({ reference: p.reference }).length === 0)!;
  used.add(payment.id);
  await topUp(KOFI_KUMASI, payment.merchantId, 1_000);
  const dueBy = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const response = await api(portal(), key, "/api/v1/disputes", {
    payment_reference: payment.reference,
    reason_code: "13.1",
    amount: 500,
    currency: "GHS",
    evidence_due_by: dueBy,
  });
  expect(response.status).toBe(201);
  return (await response.json<{ id: string }>()).id;
}

/** Sends a file as curl -F file=@name does. */
async function upload(disputeId: string, file: { name: string; bytes: Uint8Array; type: string }, headers: Record<string, string> = {}, as = key) {
  const form = new FormData();
  form.set("file", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  const encoded = new Request(portal().url, { method: "POST", body: form });
  const body = new Uint8Array(await encoded.arrayBuffer());
  return portal().fetch(`/api/v1/disputes/${disputeId}/evidence`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${as}`,
      "Content-Type": encoded.headers.get("Content-Type")!,
      "Content-Length": String(body.byteLength),
      ...headers,
    },
    body,
  });
}

const rows = async (disputeId: string) =>
  (
    await (
      await portal().db()
    )
      .prepare("SELECT id, file_name AS fileName, content_type AS contentType, size, uploaded_by AS uploadedBy FROM dispute_evidence WHERE dispute_id = ?")
      .bind(disputeId)
      .all()
  ).results;

describe("POST /api/v1/disputes/{id}/evidence", () => {
  it("takes a PDF and a PNG by their content, kept in R2 and listed on the dispute, with no person named", async () => {
    const id = await openDispute();
    const response = await upload(id, { name: "Receipt Ɔdɔ Ɛnyo 🍲.pdf", bytes: PDF, type: "application/octet-stream" });
    expect(response.status).toBe(201);
    const file = await response.json<Record<string, unknown>>();
    expect(file).toMatchObject({ dispute_id: id, file_name: "Receipt Ɔdɔ Ɛnyo 🍲.pdf", content_type: "application/pdf", size: PDF.byteLength });
    // A name of none of the four kinds takes the content's type.
    expect(await (await upload(id, { name: "photo", bytes: PNG, type: "image/png" })).json()).toMatchObject({ content_type: "image/png" });
    // Two files in the same millisecond are in either order.
    expect(await rows(id)).toHaveLength(2);
    expect(await rows(id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: file.id, contentType: "application/pdf", uploadedBy: null }),
        expect.objectContaining({ contentType: "image/png", uploadedBy: null }),
      ]),
    );
    expect((await (await portal().evidence()).keys(`disputes/${KUMASI}/${id}/`)).length).toBe(2);
    // Reading the dispute lists its files.
    const dispute = await (await api(portal(), key, `/api/v1/disputes/${id}`)).json<{ evidence: Record<string, unknown>[] }>();
    expect(dispute.evidence.map((e) => e.content_type).sort()).toEqual(["application/pdf", "image/png"]);
    expect(dispute.evidence).toContainEqual(file);
    // The audit entry names no person; the request id ties it to the API request.
    const audit = await (
      await portal().db()
    )
      .prepare("SELECT actor_id AS actorId, request_id AS requestId FROM audit_log WHERE action = 'dispute.evidence_add' AND entity_id = ? ORDER BY id LIMIT 1")
      .bind(id)
      .first<{ actorId: string | null; requestId: string }>();
    expect(audit).toEqual({ actorId: null, requestId: response.headers.get("X-Request-Id") });
  });

  it("refuses a wrong type and an oversize file with the page's words, a name holding a card number, and stores nothing", async () => {
    const id = await openDispute();
    const script = await answerOf(
      await upload(id, { name: "receipt.pdf", bytes: new TextEncoder().encode("<script>alert(1)</script>"), type: "application/pdf" }),
    );
    expect(script).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "The request has 1 problem.", errors: [{ path: "file", message: NOT_ACCEPTED }] },
    });
    const big = await answerOf(await upload(id, { name: "scan.pdf", bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25), type: "application/pdf" }));
    expect(big).toEqual({ status: 413, body: { code: "body_too_large", message: TOO_LARGE } });
    const named = await answerOf(await upload(id, { name: "receipt.png", bytes: PDF, type: "application/pdf" }));
    expect(named).toMatchObject({
      status: 400,
      body: { errors: [{ path: "file", message: expect.stringMatching(/content is a PDF, but its name ends in \.png/) }] },
    });
    // As chosen, with Hangul fillers between its groups, or as the download's ASCII fallback would write it (decision 031).
    for (const name of ["receipt 4111 1111 1111 1111.pdf", "receipt 4111\u31641111\u31641111\u31641111.pdf", "4111ɔ1111ɔ1111ɔ1111.pdf"]) {
      const card = await answerOf(await upload(id, { name, bytes: PDF, type: "application/pdf" }));
      expect(card, name).toMatchObject({ status: 400, body: { errors: [{ path: "file", message: expect.stringMatching(/full card number/) }] } });
    }
    expect(await rows(id)).toEqual([]);
    expect(await (await portal().evidence()).keys(`disputes/${KUMASI}/${id}/`)).toEqual([]);
  });

  it("another business's dispute is 404; JSON is 415; a closed dispute is 409", async () => {
    const id = await openDispute();
    const accra = await makeKey(portal(), ACCRA);
    expect(await answerOf(await upload(id, { name: "r.pdf", bytes: PDF, type: "application/pdf" }, {}, accra))).toMatchObject({
      status: 404,
      body: { code: "dispute_not_found" },
    });
    expect(await answerOf(await api(portal(), key, `/api/v1/disputes/${id}/evidence`, { file: "x" }))).toMatchObject({
      status: 415,
      body: { code: "unsupported_media_type" },
    });
    expect((await api(portal(), key, `/api/v1/disputes/${id}/close`, { outcome: "won" })).status).toBe(200);
    expect(await answerOf(await upload(id, { name: "late.pdf", bytes: PDF, type: "application/pdf" }))).toMatchObject({
      status: 409,
      body: { code: "dispute_not_answerable" },
    });
    expect(await rows(id)).toEqual([]);
  });

  it("a platform key attaches with the disputes scope, not without it", async () => {
    const id = await openDispute();
    const asKumasi = { "PP-Business": KUMASI };
    const { secret } = await makePlatformKeyFor(portal(), ["disputes"]);
    expect((await upload(id, { name: "r.pdf", bytes: PDF, type: "application/pdf" }, asKumasi, secret)).status).toBe(201);
    const { secret: paymentsOnly } = await makePlatformKeyFor(portal(), ["payments"]);
    expect(await answerOf(await upload(id, { name: "r.pdf", bytes: PDF, type: "application/pdf" }, asKumasi, paymentsOnly))).toMatchObject({
      status: 403,
      body: { code: "out_of_scope" },
    });
  });
});
