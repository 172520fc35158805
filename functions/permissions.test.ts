// The whole role x permission matrix, written out here on purpose: a change to
// who may do what must change this table too.
import { describe, expect, it } from "vitest";
import { data } from "@remix-run/cloudflare";
import { requirePermission } from "./guards";
import { PERMISSIONS, ROLES, can, canGrantRole, hasUserAccess, isRole, permissionsOf, type Permission, type Role } from "./permissions";

const S = "Super Administrator" as const;
const A = "Administrator" as const;
const O = "Operations" as const;
const F = "Finance" as const;
const V = "Viewer" as const;

const MATRIX: Record<Permission, readonly Role[]> = {
  "view:dashboard": [S, A, O, F, V],
  "view:merchant": [S, A, O, F, V],
  "export:merchant": [S, A, O],
  "request:merchant": [S, A, O],
  "view:point_of_sale": [S, A, O, F, V],
  "request:point_of_sale": [S, A, O],
  "view:terminal": [S, A, O, F, V],
  "export:terminal": [S, A, O],
  "manage:terminal": [S, A, O],
  "view:settlement_account": [S, A, O, F, V],
  "request:settlement_account": [S, A, O],
  "view:employee": [S, A],
  "request:employee": [S, A],
  "view:approval": [S, A, O, F, V],
  "decide:approval": [S, A],
  "view:transaction": [S, A, O, F, V],
  "export:transaction": [S, A, F],
  "view:balance": [S, A, O, F, V],
  "view:transfer": [S, A, O, F, V],
  "request:transfer": [S, A, F],
  "request:refund": [S, A, O, F],
  "view:settlement": [S, A, O, F, V],
  "run:settlement": [S, A],
  "view:report": [S, A, O, F, V],
  "export:report": [S, A, F],
  "view:audit": [S, A, F],
  "manage:developer": [S, A],
  "view:dispute": [S, A, O, F, V],
  "respond:dispute": [S, A, O, F],
  "request:security_policy": [S],
};

describe("the permission matrix", () => {
  it("names every permission of the module, and no other", () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...PERMISSIONS].sort());
  });

  const cells = PERMISSIONS.flatMap((permission) => ROLES.map((role) => [role, permission, MATRIX[permission].includes(role)] as const));
  it.each(cells)("%s may %s: %s", (role, permission, allowed) => {
    expect(can(role, permission)).toBe(allowed);
  });

  it("lists a role's permissions in the module's order", () => {
    expect(permissionsOf(V)).toEqual(PERMISSIONS.filter((p) => MATRIX[p].includes(V)));
  });

  it("every permission is action:entity", () => {
    for (const permission of PERMISSIONS) expect(permission).toMatch(/^[a-z]+:[a-z_]+$/);
  });
});

describe("user access and granting roles", () => {
  it.each([
    [S, true],
    [A, true],
    [O, false],
    [F, false],
    [V, false],
  ] as const)("%s has user access: %s", (role, expected) => {
    expect(hasUserAccess(role)).toBe(expected);
  });

  it.each([
    [S, S, true],
    [S, A, true],
    [S, V, true],
    [A, S, false], // an Administrator cannot grant Super Administrator
    [A, A, true],
    [A, O, true],
    [A, F, true],
    [A, V, true],
    [O, V, false],
    [F, V, false],
    [V, V, false],
  ] as const)("%s may grant %s: %s", (granter, role, expected) => {
    expect(canGrantRole(granter, role)).toBe(expected);
  });

  it("recognises the five roles exactly", () => {
    for (const role of ROLES) expect(isRole(role)).toBe(true);
    for (const other of ["Owner", "administrator", "", null, 3]) expect(isRole(other)).toBe(false);
  });
});

describe("requirePermission", () => {
  it("lets a permitted role through", () => {
    expect(() => requirePermission({ role: O }, "request:merchant")).not.toThrow();
  });

  it("throws a 403 with a message for anyone else", () => {
    let thrown: unknown;
    try {
      requirePermission({ role: V }, "request:merchant");
    } catch (error) {
      thrown = error;
    }
    const expected = data({ message: "You do not have permission to do that." }, { status: 403 });
    expect(thrown).toEqual(expected);
  });
});
