import type { Role } from "../permissions";

/** Who is acting, for which business. Every data function takes it first. */
export interface Tenant {
  businessId: string;
  userId: string;
  role: Role;
}

/** Where a change came from, for the audit log. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** A row that does not exist, or exists in another business: the two are indistinguishable. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
  constructor(entity: string) {
    super(`${entity} not found`);
  }
}

/** A rule of the business refuses the change; the message is for the person who asked. */
export class RuleError extends Error {
  override name = "RuleError";
}

/** The acting role may not do this, whatever the target. */
export class ForbiddenError extends Error {
  override name = "ForbiddenError";
}

export function nowIso(): string {
  return new Date().toISOString();
}
