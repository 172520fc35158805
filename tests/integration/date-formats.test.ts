// SPEC section 9's date formats where each fits: the full stamp
// ('DD MMM, YYYY ▪ h:mm A') for a moment on a detail page, the compact numeric one
// ('DD/MM/YYYY, h:mm A') in lists and narrow cells. Times in Africa/Accra.
import { describe, expect, it } from "vitest";
import { formatDate } from "#app/lib/format";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { useSharedPortal } from "../support/shared-portal";

// Reads the seed only (sessions of its own aside): the worker's shared portal.
const portal = useSharedPortal();

async function text(path: string): Promise<string> {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal()) });
  expect(response.status, path).toBe(200);
  return textOf(await response.text());
}

const STAMP = /\d{2} [A-Z][a-z]{2}, \d{4} ▪ \d{1,2}:\d{2} [AP]M/;

describe("date formats where they fit", () => {
  it("the dashboard's latest payments: the compact DD/MM/YYYY, h:mm A", async () => {
    const db = await portal().db();
    const latest = await db
      .prepare("SELECT reference, created_at AS at FROM transactions WHERE business_id = ? ORDER BY created_at DESC, id DESC LIMIT 8")
      .bind(KUMASI)
      .all<{ reference: string; at: number }>();
    expect(latest.results.length).toBeGreaterThan(0);
    const page = await text("/");
    for (const row of latest.results) expect(page).toContain(`${row.reference} · ${formatDate(row.at, "numeric")}`);
  });

  it("a payment's detail gives its moments as the full stamp; the list and the postings the compact numeric form", async () => {
    const db = await portal().db();
    const paid = await db
      .prepare(
        "SELECT id, created_at AS at, cleared_at AS cleared FROM transactions WHERE business_id = ? AND cleared_at IS NOT NULL ORDER BY created_at DESC LIMIT 1",
      )
      .bind(KUMASI)
      .first<{ id: number; at: number; cleared: number }>();
    const page = await text(`/transactions?range=30d&tx=${paid!.id}`);
    expect(page).toContain(`Paid ${formatDate(paid!.at, "stamp")}`);
    expect(page).toContain(`Available to the merchant ${formatDate(paid!.cleared, "stamp")}`);
    expect(page).toMatch(/ · \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M/);
  });

  it("a settlement's detail: paid and payout attempts as the stamp; its period a date", async () => {
    const db = await portal().db();
    const settlement = await db
      .prepare("SELECT id, paid_at AS paid FROM settlements WHERE business_id = ? AND paid_at IS NOT NULL ORDER BY period_start DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; paid: string }>();
    const page = await text(`/money/settlement-history?s=${settlement!.id}`);
    expect(page).toContain(`Paid ${formatDate(settlement!.paid, "stamp")}`);
  });

  it("an approval request's moment, and a terminal's last contact, as the stamp", async () => {
    const db = await portal().db();
    const request = await db
      .prepare("SELECT id, made_at AS made FROM approval_requests WHERE business_id = ? AND kind = 'merchant' ORDER BY made_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; made: string }>();
    const approval = await text(`/approvals/merchant/${request!.id}`);
    expect(approval).toContain(`Made at ${formatDate(request!.made, "stamp")}`);
    // In the queue, the compact form.
    expect(await text("/approvals")).toMatch(/\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M/);

    const terminal = await db
      .prepare("SELECT id, last_seen_at AS seen FROM terminals WHERE business_id = ? AND last_seen_at IS NOT NULL LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; seen: number }>();
    const device = await text(`/pos-terminals/device-details/${terminal!.id}`);
    expect(device).toContain(`Last seen ${formatDate(terminal!.seen, "stamp")}`);
    expect(device).toMatch(STAMP);
  });
});
