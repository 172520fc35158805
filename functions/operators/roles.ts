// The platform's own staff and what each may do (decision 039). Apart from a business's roles (functions/permissions.ts):
// nobody holds a platform role through a business, and no business role reaches /platform.

export const PLATFORM_ROLES = ["Platform Administrator", "Platform Support"] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export const PLATFORM_PERMISSIONS = [
  // Every /platform screen: the businesses, jobs, queues, shards, requests and the platform's audit.
  "platform:view",
  // Asking for a change a second administrator decides: onboarding, suspending, reactivating, closing, running a
  // job now, moving a business, replaying a queue.
  "platform:request",
  // Approving or rejecting another administrator's request.
  "platform:decide",
  // The switch's platform keys: make, roll, revoke.
  "platform:keys",
] as const;
export type PlatformPermission = (typeof PLATFORM_PERMISSIONS)[number];

const GRANTS: Record<PlatformRole, ReadonlySet<PlatformPermission>> = {
  "Platform Administrator": new Set(PLATFORM_PERMISSIONS),
  // Support watches and helps businesses; it changes nothing and decides nothing.
  "Platform Support": new Set<PlatformPermission>(["platform:view"]),
};

export function isPlatformRole(value: unknown): value is PlatformRole {
  return typeof value === "string" && (PLATFORM_ROLES as readonly string[]).includes(value);
}

export function platformCan(role: PlatformRole, permission: PlatformPermission): boolean {
  return GRANTS[role].has(permission);
}
