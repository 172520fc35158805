// Who may do what: `action:entity` strings for the five roles of DESIGN
// section 5. Pure and shared: loaders and actions enforce it (functions/guards.ts),
// the UI imports it only to hide or disable what a role cannot do.

/** What a refusal by role says when nothing more is to be said: the 403 page's default sentence, the guards' word. */
export const NO_PERMISSION = "You do not have permission to do that.";

export const ROLES = ["Super Administrator", "Administrator", "Operations", "Finance", "Viewer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "view:dashboard",
  "view:merchant",
  "export:merchant",
  "request:merchant",
  "view:point_of_sale",
  "request:point_of_sale",
  "view:terminal",
  "export:terminal",
  "manage:terminal",
  "view:settlement_account",
  "request:settlement_account",
  "view:employee",
  "request:employee",
  "view:approval",
  "decide:approval",
  "view:transaction",
  "export:transaction",
  "view:balance",
  "view:transfer",
  "request:transfer",
  // Refunds: asked by Operations, Finance and administrators, approved by an administrator who did not ask.
  "request:refund",
  "view:settlement",
  "run:settlement",
  "view:report",
  "export:report",
  "view:audit",
  // The Developers tab: API keys, webhook endpoints and their delivery logs (administrators only).
  "manage:developer",
  // Disputes: everyone reads them; Operations, Finance and administrators answer them.
  "view:dispute",
  "respond:dispute",
  // The business's security policy: only a Super Administrator asks to change it; another administrator approves.
  "request:security_policy",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYTHING = new Set<Permission>(PERMISSIONS);

/** Everyone who works in a business reads its operations, money and reports... */
const READ: Permission[] = [
  "view:dashboard",
  "view:merchant",
  "view:point_of_sale",
  "view:terminal",
  "view:settlement_account",
  "view:approval",
  "view:transaction",
  "view:balance",
  "view:transfer",
  "view:settlement",
  "view:report",
  "view:dispute",
];

const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  // Both administrators hold user access and decide requests (SPEC section 6).
  "Super Administrator": EVERYTHING,
  Administrator: new Set<Permission>(PERMISSIONS.filter((permission) => permission !== "request:security_policy")),
  // ...Operations asks for changes to the merchant estate and runs the terminal fleet...
  Operations: new Set<Permission>([
    ...READ,
    "export:merchant",
    "export:terminal",
    "request:merchant",
    "request:point_of_sale",
    "request:settlement_account",
    "manage:terminal",
    "request:refund",
    "respond:dispute",
  ]),
  // ...Finance works the money: exports, and transfers for a second person to approve...
  // (and reads the audit log, with the administrators)...
  Finance: new Set<Permission>([...READ, "export:transaction", "export:report", "request:transfer", "request:refund", "respond:dispute", "view:audit"]),
  // ...and a Viewer only reads.
  Viewer: new Set<Permission>(READ),
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((permission) => can(role, permission));
}

/** Roles that grant user access (SPEC section 6). */
export function hasUserAccess(role: Role): boolean {
  return role === "Super Administrator" || role === "Administrator";
}

/** Whether someone with `granter`'s role may give `role` to a person: an Administrator cannot make a Super Administrator. */
export function canGrantRole(granter: Role, role: Role): boolean {
  if (!hasUserAccess(granter)) return false;
  return granter === "Super Administrator" || role !== "Super Administrator";
}
