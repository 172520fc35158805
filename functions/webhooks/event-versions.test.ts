// The renderers of event data per version (./event-versions.ts): what an endpoint pinned to 2026-11-27 receives is
// exactly what the portal sent before versions existed (the same fields, in the same order), rendered from the one
// stored form; an endpoint of the current version receives the stored bytes themselves.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EVENT_DATA_BY_VERSION, EVENT_DATA_EXAMPLES } from "../partner-api/event-schemas";
import { renderEventData, STORED_EVENT_VERSION, to20261127, type EventExtra } from "./event-versions";
import { API_VERSIONS, CURRENT_API_VERSION } from "../partner-api/versions";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./types";

/** What each emitter writes beside the data (payload_extra) for the examples. */
const EXTRA: Partial<Record<WebhookEventType, EventExtra>> = {
  "settlement.paid": { attempt: 1 },
  "settlement.failed": { attempt: 2, error: "Switch: account closed", will_retry: true },
  "refund.failed": { attempts: 4 },
  "terminal.silent": { silent_after_hours: 24 },
};

const dispute = EVENT_DATA_EXAMPLES["dispute.opened"];
const closedDispute = EVENT_DATA_EXAMPLES["dispute.closed"];

/** The examples as the emitters wrote them before 2026-12-01 (key order included). */
const IN_2026_11_27: Record<WebhookEventType, unknown> = {
  "payment.succeeded": EVENT_DATA_EXAMPLES["payment.succeeded"],
  "payment.failed": EVENT_DATA_EXAMPLES["payment.failed"],
  "payment.reversed": EVENT_DATA_EXAMPLES["payment.reversed"],
  "settlement.paid": {
    settlement: { id: "stl_kff_000070", reference: "STL-KFF-MRC-0001-20261125", net: 48_178, currency: "GHS", attempt: 1, paidAt: "2026-11-26T06:04:12.000Z" },
  },
  "settlement.failed": {
    settlement: {
      id: "stl_kff_000070",
      reference: "STL-KFF-MRC-0001-20261125",
      net: 48_178,
      currency: "GHS",
      attempt: 2,
      error: "Switch: account closed",
      willRetry: true,
    },
  },
  "transfer.approved": {
    transfer: {
      id: "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
      fromMerchantId: "mer_kff_0001",
      toMerchantId: null,
      toSettlementAccountId: "sac_kff_00001",
      amount: 50_000,
      currency: "GHS",
      status: "completed",
      requestedBy: "usr_esi_owusu",
      decidedBy: "usr_kofi_boateng",
      decidedAt: "2026-11-26T11:02:00.000Z",
    },
  },
  "transfer.rejected": {
    transfer: {
      id: "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
      fromMerchantId: "mer_kff_0001",
      toMerchantId: null,
      toSettlementAccountId: "sac_kff_00001",
      amount: 50_000,
      currency: "GHS",
      status: "rejected",
      requestedBy: "usr_esi_owusu",
      decidedBy: "usr_kofi_boateng",
      decidedAt: "2026-11-26T11:02:00.000Z",
      reason: "Not agreed with the merchant",
    },
  },
  "refund.succeeded": {
    refund: {
      id: "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
      paymentReference: "KFF-261126-0000496",
      amount: 4_000,
      currency: "GHS",
      status: "succeeded",
      completedAt: "2026-11-26T12:00:05.000Z",
    },
  },
  "refund.failed": {
    refund: {
      id: "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
      paymentReference: "KFF-261126-0000496",
      amount: 4_000,
      currency: "GHS",
      status: "failed",
      completedAt: "2026-11-26T12:00:05.000Z",
      error: "Switch: wallet closed",
      attempts: 4,
    },
  },
  "approval.requested": {
    approvalRequest: {
      id: "req_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
      kind: "refund",
      action: "create",
      targetId: "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
      makerId: "usr_esi_owusu",
      madeAt: "2026-11-26T11:58:00.000Z",
    },
  },
  "terminal.silent": {
    terminal: { id: "trm_kff_00001", serial: "655-001-992", merchantId: "mer_kff_0001", pointOfSaleId: "pos_kff_00001" },
    lastSeenAt: "2026-11-25T08:00:00.000Z",
    silentAfterHours: 24,
  },
  "dispute.opened": { dispute },
  "dispute.closed": { dispute: closedDispute },
};

const stored = (type: string, data: unknown, extra?: EventExtra) => ({
  type,
  payload: JSON.stringify(data),
  payloadVersion: STORED_EVENT_VERSION,
  payloadExtra: extra ? JSON.stringify(extra) : null,
});

const issuesOf = (result: v.SafeParseResult<v.GenericSchema>) => (result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)} ${i.message}`));

describe("each version's shapes", () => {
  it("the emitters write the current version's shapes, and the versions are 2026-11-27 and 2026-12-01", () => {
    expect(API_VERSIONS).toEqual(["2026-11-27", "2026-12-01"]);
    expect(STORED_EVENT_VERSION).toBe(CURRENT_API_VERSION);
  });

  it.each(WEBHOOK_EVENT_TYPES)("%s: the example is the current version's shape; its 2026-11-27 rendering is 2026-11-27's", (type) => {
    expect(issuesOf(v.safeParse(EVENT_DATA_BY_VERSION["2026-12-01"][type], EVENT_DATA_EXAMPLES[type]))).toEqual([]);
    expect(issuesOf(v.safeParse(EVENT_DATA_BY_VERSION["2026-11-27"][type], IN_2026_11_27[type]))).toEqual([]);
    // The current shapes are not the older ones (but payment.*'s): a receiver pinned to one never gets the other.
    if (!type.startsWith("payment.")) expect(v.is(EVENT_DATA_BY_VERSION["2026-11-27"][type], EVENT_DATA_EXAMPLES[type]), type).toBe(false);
  });
});

describe("rendering 2026-12-01 data in 2026-11-27", () => {
  it.each(WEBHOOK_EVENT_TYPES)("%s: exactly what the portal sent before versions, fields in the same order", (type) => {
    const rendered = renderEventData(stored(type, EVENT_DATA_EXAMPLES[type], EXTRA[type]), "2026-11-27");
    expect(rendered).toBe(JSON.stringify(IN_2026_11_27[type]));
    expect(to20261127(type, EVENT_DATA_EXAMPLES[type], EXTRA[type])).toEqual(IN_2026_11_27[type]);
  });

  it("names a transfer's reason only for a rejection, as 2026-11-27 did", () => {
    const approved = JSON.parse(renderEventData(stored("transfer.approved", EVENT_DATA_EXAMPLES["transfer.approved"]), "2026-11-27")) as {
      transfer: Record<string, unknown>;
    };
    expect(approved.transfer).not.toHaveProperty("reason");
  });

  it("an event with no extra facts still renders in the older schema (the settlement's count of attempts, 24 hours of silence)", () => {
    const paid = JSON.parse(renderEventData(stored("settlement.paid", EVENT_DATA_EXAMPLES["settlement.paid"]), "2026-11-27")) as {
      settlement: { attempt: number };
    };
    expect(paid.settlement.attempt).toBe(1);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const data = JSON.parse(renderEventData(stored(type, EVENT_DATA_EXAMPLES[type]), "2026-11-27")) as unknown;
      expect(issuesOf(v.safeParse(EVENT_DATA_BY_VERSION["2026-11-27"][type], data)), type).toEqual([]);
    }
  });
});

describe("renderEventData", () => {
  it("answers the stored bytes themselves when the versions agree, and for payment.* in every version", () => {
    const spaced = { type: "settlement.paid", payload: '{ "id" : "stl_1" ,"note":"Ɔ 🦅"}', payloadVersion: "2026-12-01", payloadExtra: '{"attempt":1}' };
    expect(renderEventData(spaced, "2026-12-01")).toBe(spaced.payload);
    const payment = { ...spaced, type: "payment.succeeded" };
    for (const version of API_VERSIONS) expect(renderEventData(payment, version)).toBe(payment.payload);
    // A test event and a type this portal does not know are as they were.
    expect(renderEventData({ ...spaced, type: "webhook.test" }, "2026-11-27")).toBe(spaced.payload);
  });

  it("reads a version it does not know as the current one", () => {
    const event = stored("refund.succeeded", EVENT_DATA_EXAMPLES["refund.succeeded"]);
    expect(renderEventData(event, "2031-01-01")).toBe(event.payload);
    expect(renderEventData(event, "")).toBe(event.payload);
  });

  it("an event stored in 2026-11-27 (before migration 0037) is as stored in 2026-11-27, its dispute unwrapped in 2026-12-01, the rest as stored", () => {
    const old = (type: WebhookEventType) => ({ type, payload: JSON.stringify(IN_2026_11_27[type]), payloadVersion: "2026-11-27", payloadExtra: null });
    for (const type of WEBHOOK_EVENT_TYPES) expect(renderEventData(old(type), "2026-11-27"), type).toBe(old(type).payload);
    expect(JSON.parse(renderEventData(old("dispute.opened"), "2026-12-01"))).toEqual(dispute);
    expect(JSON.parse(renderEventData(old("dispute.closed"), "2026-12-01"))).toEqual(closedDispute);
    expect(renderEventData(old("settlement.paid"), "2026-12-01")).toBe(old("settlement.paid").payload);
  });
});
