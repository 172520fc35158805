// The maker-checker engine against real D1 in workerd.
import { describe, expect, it } from "vitest";
import { approveRequest, rejectRequest, requestChange } from "#server/approvals/approvals.db";
import { StaleRequestError, type ChangeValues } from "#server/approvals/change-kinds";
import { getApprovalRequest, listApprovalRequests } from "#server/approvals/change-requests.db";
import { listAudit } from "#server/audit/audit.db";
import { getEmployee } from "#server/team/employees.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { getSettlementAccount } from "#server/settlement/settlement-accounts.db";
import { ForbiddenError, NotFoundError, RuleError } from "#server/tenancy/tenant";
import { usePortal } from "../support/use-portal";
import { AMA_KUMASI, ESI_KUMASI, KOFI_KUMASI, KUMASI, META, ABENA_KUMASI } from "../support/tenants";

const portal = usePortal();
let serial = 0;

function newMerchant(overrides: ChangeValues = {}): ChangeValues {
  serial += 1;
  const n = String(serial).padStart(4, "0");
  return {
    code: `MER-T${n}`,
    name: `Adwoa Fabrics ${n}`,
    trading_name: `Adwoa Fabrics ${n}`,
    tin: `C${String(7_000_000_000 + serial)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "12 Adum Road",
    contact_name: "Adwoa Sarpong",
    contact_phone: "233244000111",
    contact_email: "adwoa@example.com",
    ...overrides,
  };
}

async function approvedMerchant(): Promise<string> {
  const requestId = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
  return (await approveRequest(KOFI_KUMASI, META, requestId)).targetId;
}

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const db = await portal().db();
  return (
    (await db
      .prepare(sql)
      .bind(...binds)
      .first<number>("n")) ?? -1
  );
}

describe("making a request", () => {
  it("stores the change, the maker and the time, changes nothing, and is audited", async () => {
    const after = newMerchant();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after });
    const request = await getApprovalRequest(ESI_KUMASI, id);
    expect(request).toMatchObject({
      kind: "merchant",
      action: "create",
      status: "pending",
      makerId: "usr_esi_owusu",
      makerName: "Esi Owusu",
      before: null,
      after,
    });
    expect(Date.parse(request!.madeAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await getMerchant(ESI_KUMASI, request!.targetId)).toBeNull();
    const audit = await listAudit(ESI_KUMASI, { entity: "approval_request", entityId: id });
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      action: "request.create",
      actorId: "usr_esi_owusu",
      ip: META.ip,
      userAgent: META.userAgent,
      requestId: META.requestId,
    });
  });

  it("an update stores before and after of the changed fields only", async () => {
    const merchantId = await approvedMerchant();
    const id = await requestChange(ESI_KUMASI, META, {
      kind: "merchant",
      action: "update",
      targetId: merchantId,
      after: { town: "Obuasi", sector: "Retail" },
    });
    const request = await getApprovalRequest(ESI_KUMASI, id);
    expect(request).toMatchObject({ before: { town: "Kumasi" }, after: { town: "Obuasi" }, targetVersion: 1 });
  });

  it("refuses roles that may not ask, unknown fields, missing fields and no-op updates", async () => {
    await expect(requestChange(ABENA_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: { ...newMerchant(), status: "active" } })).rejects.toThrow(
      "cannot be set",
    );
    await expect(requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: { ...newMerchant(), tin: "" } })).rejects.toThrow("needs: tin");
    const merchantId = await approvedMerchant();
    const merchant = await getMerchant(ESI_KUMASI, merchantId);
    await expect(
      requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchantId, after: { town: merchant!.town } }),
    ).rejects.toThrow("Nothing would change");
  });

  it("allows one pending request per target", async () => {
    const merchantId = await approvedMerchant();
    await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchantId, after: { town: "Ejisu" } });
    await expect(requestChange(ESI_KUMASI, META, { kind: "merchant", action: "deactivate", targetId: merchantId })).rejects.toThrow(
      "already has a pending request",
    );
  });
});

describe("deciding", () => {
  it("only administrators decide, and never their own request", async () => {
    const byEsi = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    await expect(approveRequest(ESI_KUMASI, META, byEsi)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(approveRequest(ABENA_KUMASI, META, byEsi)).rejects.toBeInstanceOf(ForbiddenError);
    const byKofi = await requestChange(KOFI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    await expect(approveRequest(KOFI_KUMASI, META, byKofi)).rejects.toThrow("You cannot decide your own request.");
    await expect(rejectRequest(KOFI_KUMASI, META, byKofi, "no")).rejects.toThrow("You cannot decide your own request.");
    expect((await getApprovalRequest(KOFI_KUMASI, byKofi))!.status).toBe("pending");
  });

  it("approving applies the change, records the checker and time, and audits both", async () => {
    const after = newMerchant();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after });
    const decided = await approveRequest(KOFI_KUMASI, META, id);
    expect(decided).toMatchObject({ status: "approved", checkerId: "usr_kofi_boateng", checkerName: "Kofi Boateng" });
    expect(decided.decidedAt).not.toBeNull();
    const merchant = await getMerchant(KOFI_KUMASI, decided.targetId);
    expect(merchant).toMatchObject({ name: after.name, tin: after.tin, status: "active", version: 1 });
    const changeAudit = await listAudit(KOFI_KUMASI, { entity: "merchant", entityId: decided.targetId });
    expect(changeAudit.rows.map((r) => r.action)).toEqual(["merchant.create"]);
    expect(changeAudit.rows[0]).toMatchObject({ actorId: "usr_kofi_boateng", after, ip: META.ip });
    const decision = await listAudit(KOFI_KUMASI, { entity: "approval_request", entityId: id });
    expect(decision.rows.map((r) => r.action)).toEqual(["request.approve", "request.create"]);
    await expect(approveRequest(KOFI_KUMASI, META, id)).rejects.toThrow("already approved");
  });

  it("an update and a deactivate apply and bump the version", async () => {
    const merchantId = await approvedMerchant();
    await approveRequest(
      KOFI_KUMASI,
      META,
      await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchantId, after: { town: "Bekwai" } }),
    );
    expect(await getMerchant(ESI_KUMASI, merchantId)).toMatchObject({ town: "Bekwai", version: 2 });
    await approveRequest(AMA_KUMASI, META, await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "deactivate", targetId: merchantId }));
    expect(await getMerchant(ESI_KUMASI, merchantId)).toMatchObject({ status: "inactive", version: 3 });
    await expect(requestChange(ESI_KUMASI, META, { kind: "merchant", action: "deactivate", targetId: merchantId })).rejects.toThrow("already deactivated");
  });

  it("rejecting needs a reason, which is kept", async () => {
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    await expect(rejectRequest(KOFI_KUMASI, META, id, "   ")).rejects.toThrow("Give a reason");
    const rejected = await rejectRequest(KOFI_KUMASI, META, id, "  TIN does not match the GRA record ");
    expect(rejected).toMatchObject({ status: "rejected", reason: "TIN does not match the GRA record", checkerId: "usr_kofi_boateng" });
    expect(await getMerchant(KOFI_KUMASI, rejected.targetId)).toBeNull();
    const audit = await listAudit(KOFI_KUMASI, { entity: "approval_request", entityId: id });
    expect(audit.rows[0]).toMatchObject({ action: "request.reject", after: { status: "rejected", reason: "TIN does not match the GRA record" } });
  });
});

describe("all or nothing", () => {
  it("a statement failing inside the approval leaves nothing applied, decided or audited", async () => {
    const first = newMerchant();
    const clash = newMerchant({ tin: first.tin ?? null });
    const a = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: first });
    const b = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: clash });
    await approveRequest(KOFI_KUMASI, META, a);
    const auditBefore = await count("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?", KUMASI);

    // The INSERT fails on UNIQUE (business_id, tin) after the guard has been written.
    await expect(approveRequest(KOFI_KUMASI, META, b)).rejects.toBeInstanceOf(RuleError);
    const request = await getApprovalRequest(KOFI_KUMASI, b);
    expect(request).toMatchObject({ status: "pending", checkerId: null, decidedAt: null });
    expect(await getMerchant(KOFI_KUMASI, request!.targetId)).toBeNull();
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?", KUMASI)).toBe(auditBefore);
    expect(await count("SELECT COUNT(*) AS n FROM batch_guards")).toBe(0);
  });
});

describe("stale requests", () => {
  it("a request whose target changed since it was made is marked stale, not applied", async () => {
    const db = await portal().db();
    const merchantId = await approvedMerchant();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchantId, after: { name: "Renamed Fabrics" } });
    // Something else changes the merchant meanwhile.
    await db.prepare("UPDATE merchants SET address = '1 New Road', version = version + 1 WHERE id = ?").bind(merchantId).run();
    await expect(approveRequest(KOFI_KUMASI, META, id)).rejects.toBeInstanceOf(StaleRequestError);
    expect((await getApprovalRequest(KOFI_KUMASI, id))!.status).toBe("stale");
    expect(await getMerchant(KOFI_KUMASI, merchantId)).toMatchObject({ name: expect.not.stringContaining("Renamed"), address: "1 New Road" });
    const audit = await listAudit(KOFI_KUMASI, { entity: "approval_request", entityId: id });
    expect(audit.rows[0]!.action).toBe("request.stale");
  });

  it("making another account primary makes a pending change to the old primary stale", async () => {
    const merchantId = await approvedMerchant();
    const account = (primary: number, number: string): ChangeValues => ({
      merchant_id: merchantId,
      kind: "mobile_money",
      provider: "MTN",
      account_number: number,
      account_name: "Adwoa Sarpong",
      is_primary: primary,
    });
    const first = await approveRequest(
      KOFI_KUMASI,
      META,
      await requestChange(ESI_KUMASI, META, { kind: "settlement_account", action: "create", after: account(1, "0244000111") }),
    );
    const rename = await requestChange(ESI_KUMASI, META, {
      kind: "settlement_account",
      action: "update",
      targetId: first.targetId,
      after: { account_name: "A. Sarpong" },
    });
    const second = await approveRequest(
      KOFI_KUMASI,
      META,
      await requestChange(ESI_KUMASI, META, { kind: "settlement_account", action: "create", after: account(1, "0244000222") }),
    );
    expect(await getSettlementAccount(KOFI_KUMASI, first.targetId)).toMatchObject({ isPrimary: false, version: 2 });
    expect(await getSettlementAccount(KOFI_KUMASI, second.targetId)).toMatchObject({ isPrimary: true });
    await expect(approveRequest(KOFI_KUMASI, META, rename)).rejects.toBeInstanceOf(StaleRequestError);
  });
});

describe("employees", () => {
  it("an Administrator cannot grant Super Administrator, asking or approving", async () => {
    const invite = { email: "Kwesi.Appiah@Example.com ", name: "Kwesi Appiah", gender: "male", phone: "233246000333", role: "Super Administrator" };
    await expect(requestChange(KOFI_KUMASI, META, { kind: "employee", action: "create", after: invite })).rejects.toThrow(
      "Your role cannot grant Super Administrator.",
    );
    const id = await requestChange(AMA_KUMASI, META, { kind: "employee", action: "create", after: invite });
    await expect(approveRequest(KOFI_KUMASI, META, id)).rejects.toThrow("Your role cannot grant Super Administrator.");
    expect((await getApprovalRequest(KOFI_KUMASI, id))!.after.email).toBe("kwesi.appiah@example.com");
  });

  it("an invitation approved by another administrator adds the person with the role", async () => {
    const id = await requestChange(AMA_KUMASI, META, {
      kind: "employee",
      action: "create",
      after: { email: "efua.quaye@example.com", name: "Efua Quaye", gender: "female", phone: "233506000444", role: "Finance" },
    });
    const approved = await approveRequest(KOFI_KUMASI, META, id, { core: portal().core() });
    expect(await getEmployee(KOFI_KUMASI, approved.targetId)).toMatchObject({
      email: "efua.quaye@example.com",
      role: "Finance",
      status: "active",
      contactPhone: "233506000444",
    });
    await expect(
      requestChange(AMA_KUMASI, META, {
        kind: "employee",
        action: "create",
        after: { email: "efua.quaye@example.com", name: "E", gender: "female", phone: "233506000444", role: "Viewer" },
      }),
    ).rejects.toThrow("already an employee");
  });

  it("nobody changes their own role, by asking or by approving", async () => {
    await expect(
      requestChange(KOFI_KUMASI, META, { kind: "employee", action: "update", targetId: "usr_kofi_boateng", after: { role: "Viewer" } }),
    ).rejects.toThrow("your own role");
    const id = await requestChange(AMA_KUMASI, META, { kind: "employee", action: "update", targetId: "usr_kofi_boateng", after: { role: "Viewer" } });
    await expect(approveRequest(KOFI_KUMASI, META, id)).rejects.toThrow("your own role");
  });

  it("a role change approved by the other administrator applies", async () => {
    const id = await requestChange(AMA_KUMASI, META, { kind: "employee", action: "update", targetId: "usr_abena_darko", after: { role: "Viewer" } });
    await approveRequest(KOFI_KUMASI, META, id);
    expect(await getEmployee(KOFI_KUMASI, "usr_abena_darko")).toMatchObject({ role: "Viewer", version: 2 });
  });
});

describe("the queue", () => {
  it("filters by status and maker and pages by keyset", async () => {
    for (let i = 0; i < 3; i += 1) await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const all = await listApprovalRequests(KOFI_KUMASI, { status: "pending", makerId: "usr_esi_owusu", limit: 100, withTotal: true });
    expect(all.total).toBe(all.rows.length);
    expect(all.rows.every((r) => r.status === "pending" && r.makerId === "usr_esi_owusu")).toBe(true);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listApprovalRequests>> = await listApprovalRequests(KOFI_KUMASI, {
        status: "pending",
        makerId: "usr_esi_owusu",
        limit: 2,
        after,
      });
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(all.rows.map((r) => r.id));
  });
});

describe("the audit log", () => {
  it("cannot be changed or removed, even with SQL", async () => {
    const db = await portal().db();
    await approvedMerchant();
    await expect(db.prepare("UPDATE audit_log SET action = 'nothing'").run()).rejects.toThrow("append-only");
    await expect(db.prepare("DELETE FROM audit_log").run()).rejects.toThrow("append-only");
  });

  it("the data layer offers no way to change or remove an entry", async () => {
    const audit = await import("#server/audit/audit.db");
    const exports = Object.keys(audit);
    expect(exports).toEqual(expect.arrayContaining(["auditStatement", "listAudit"]));
    // Only readers (list...) and writers of new entries (...Statement: an INSERT for a batch).
    for (const name of exports) expect(name, name).toMatch(/^list[A-Z]\w*$|^\w*[aA]uditStatement$/);
  });
});

describe("ids of another business", () => {
  it("a request of another business cannot be read or decided", async () => {
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const { AMA_ACCRA } = await import("../support/tenants");
    expect(await getApprovalRequest(AMA_ACCRA, id)).toBeNull();
    await expect(approveRequest(AMA_ACCRA, META, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rejectRequest(AMA_ACCRA, META, id, "no")).rejects.toBeInstanceOf(NotFoundError);
    expect((await getApprovalRequest(ESI_KUMASI, id))!.status).toBe("pending");
  });
});
