// One evidence file sent to a dispute's page (decision 023). The Worker takes request bodies of up to
// 100 MB and holds them in 128 MB of memory, so a body declared larger than one file and its form is refused before
// it is read; the file's size and type (by its bytes) are checked before anything is written. Then the object goes to
// R2 first and its row to D1 after: a row never points at a missing object. When the row cannot be written the
// object is deleted again; if that delete fails too (or the Worker stops between the two), the object is an orphan
// that nothing links to or serves, found by listing disputes/<business>/ against dispute_evidence (decision 023).
import { addEvidence, answerableDispute, MAX_EVIDENCE_BYTES } from "./disputes.db";
import { cleanFileName, nameContradicts, sniffEvidenceType } from "./evidence";
import { bidiControlMessage, hasBidiControl } from "../plumbing/text-direction";
import { fileNameHoldsCardNumber } from "./evidence-download";
import type { FieldErrors } from "../plumbing/http";
import { readFormBody } from "../forms";
import { isBusinessMoving, MOVING_MESSAGE, NotFoundError, RuleError, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { pageNotFound } from "../plumbing/http";
import type { EvidenceView } from "../partner-api/schemas";
import type * as v from "valibot";

/** Room for the form's other fields and the multipart boundaries around the one file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
export const TOO_LARGE = "The file is larger than 10 MB. Send a smaller file (a photo at a lower resolution, or the PDF's pages in two files).";
export const NOT_ACCEPTED =
  "This file is not a PDF, JPEG, PNG or WebP image: its content was checked, not its name. Save it as one of those and attach it again.";

/** The file as it was kept. */
export interface UploadedEvidence {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: number;
}

/** The file name is kept and shown (and the Partner API answers it): no card number in it, as nowhere else. */
export const CARD_NUMBER_IN_NAME = "This file's name holds what looks like a full card number. Rename the file without it and attach it again.";

/**
 * Takes the one file of a multipart form (its part named "file") for the dispute: the dispute's page and the Partner
 * API (POST /api/v1/disputes/{id}/evidence, tenant.userId "" for no person) both send it here, so the rules are one.
 */
export async function uploadEvidence(
  request: Request,
  bucket: R2Bucket,
  tenant: Tenant,
  meta: RequestMeta,
  disputeId: string,
  now: number,
): Promise<UploadedEvidence | { errors: FieldErrors }> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_EVIDENCE_BYTES + FORM_OVERHEAD_BYTES) return { errors: { file: TOO_LARGE } };
  try {
    // Refused before a byte is stored: a closed, submitted or overdue dispute takes no file (and another business's is a 404).
    await answerableDispute(tenant, disputeId, now);
  } catch (error) {
    if (error instanceof NotFoundError) pageNotFound(request);
    if (error instanceof RuleError) return { errors: { form: error.message } };
    throw error;
  }
  // Read as every form is (functions/forms.ts): held to the limit as it is read, whatever was declared.
  const form = await readFormBody(request, { maxBytes: MAX_EVIDENCE_BYTES + FORM_OVERHEAD_BYTES });
  if (!(form instanceof FormData)) return { errors: { file: form.status === 413 ? TOO_LARGE : "The file did not arrive whole. Attach it again." } };
  // workerd gives a File for a file part; the Workers types say string (their pre-2021 default).
  const file: unknown = form.get("file");
  if (!(file instanceof File) || file.size === 0) return { errors: { file: "Choose a file to attach." } };
  if (file.size > MAX_EVIDENCE_BYTES) return { errors: { file: TOO_LARGE } };
  // "invoice\u202Egnp.pdf" would be listed as "invoicefdp.png": refused, not quietly cleaned.
  if (hasBidiControl(file.name)) return { errors: { file: bidiControlMessage("file name") } };
  if (fileNameHoldsCardNumber(file.name)) return { errors: { file: CARD_NUMBER_IN_NAME } };
  const contentType = sniffEvidenceType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!contentType) return { errors: { file: NOT_ACCEPTED } };
  const contradiction = nameContradicts(file.name, contentType);
  if (contradiction) return { errors: { file: contradiction } };

  const id = `dev_${crypto.randomUUID().replaceAll("-", "")}`;
  const r2Key = `disputes/${tenant.businessId}/${disputeId}/${id}`;
  const fileName = cleanFileName(file.name);
  await bucket.put(r2Key, await file.arrayBuffer(), {
    httpMetadata: { contentType },
    customMetadata: { businessId: tenant.businessId, disputeId, uploadedBy: tenant.userId || "partner-api" },
  });
  try {
    await addEvidence(tenant, meta, disputeId, { id, r2Key, fileName, contentType, size: file.size }, now);
  } catch (error) {
    await bucket.delete(r2Key).catch(() => {});
    if (error instanceof RuleError) return { errors: { form: error.message } };
    if (isBusinessMoving(error)) return { errors: { form: MOVING_MESSAGE } };
    if (error instanceof Error && /CHECK constraint failed/.test(error.message))
      return { errors: { file: "This dispute already has 10 files: that is the most it takes." } };
    throw error;
  }
  return { id, fileName, contentType, size: file.size, uploadedAt: now };
}

/** An evidence file as the API answers it. */
export function evidenceData(disputeId: string, file: UploadedEvidence): v.InferOutput<typeof EvidenceView> {
  return {
    id: file.id,
    dispute_id: disputeId,
    file_name: file.fileName,
    content_type: file.contentType as v.InferOutput<typeof EvidenceView>["content_type"],
    size: file.size,
    uploaded_at: new Date(file.uploadedAt).toISOString(),
  };
}
