// The seed's pending requests are real work for the checkers: every one of them
// is decided through the approvals engine and applies (the seed and the engine
// agree on the payload contract).
import { describe, expect, it } from "vitest";
import { approveRequest } from "#server/approvals/approvals.db";
import { getApprovalRequest, listApprovalRequests } from "#server/approvals/change-requests.db";
import { listAudit } from "#server/audit/audit.db";
import { usePortal } from "../support/use-portal";
import { AMA_KUMASI, KOFI_KUMASI, META } from "../support/tenants";

const portal = usePortal();

describe("the seeded approvals queue", () => {
  it("holds every kind, and every request applies when a checker approves it", async () => {
    const pending = (await listApprovalRequests(KOFI_KUMASI, { status: "pending", limit: 100 })).rows;
    expect(new Set(pending.map((r) => r.kind))).toEqual(new Set(["employee", "merchant", "point_of_sale", "settlement_account"]));
    expect(new Set(pending.map((r) => r.action))).toEqual(new Set(["create", "update", "deactivate"]));

    for (const request of pending) {
      // Kofi checks what others made; Ama checks what Kofi made.
      const checker = request.makerId === KOFI_KUMASI.userId ? AMA_KUMASI : KOFI_KUMASI;
      const decided = await approveRequest(checker, META, request.id, { core: portal().core() });
      expect(decided.status, `${request.kind} ${request.action} ${request.id}`).toBe("approved");
      const applied = await listAudit(checker, { entity: request.kind, entityId: request.targetId });
      expect(
        applied.rows.map((a) => a.action),
        request.id,
      ).toContain(`${request.kind}.${request.action}`);
    }
    expect((await listApprovalRequests(KOFI_KUMASI, { status: "pending", limit: 100 })).rows).toEqual([]);
    expect((await getApprovalRequest(KOFI_KUMASI, pending[0]!.id))!.checkerId).not.toBeNull();
  });
});
