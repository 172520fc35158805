// The first Platform Administrator of a deployment (decision 039): `npm run platform:admin` makes one in the core
// database, or makes an existing person one, before anyone can sign in to /platform. Whoever runs it holds the
// deployment's databases, so it is audited as the system. Running it again with the same input changes nothing.
import { MAX_PHONES } from "../auth/phones";
import type { Db, RequestMeta } from "../tenancy/tenant";
import { adminBootstrapState, bootstrapAdminStatements, type AdminBootstrapState, type AdminBootstrapWrite } from "./staff.db";

/** Already read by the one phone rule and the email rule (scripts/lib/platform-admin-args.ts): 233XXXXXXXXX, lower-case. */
export interface AdminInput {
  email: string;
  name: string;
  phone: { msisdn: string; masked: string };
}

export type BootstrapOutcome =
  | { kind: "created" | "promoted" | "reenabled"; userId: string; name: string; linksPhone: boolean }
  | { kind: "unchanged"; userId: string; name: string }
  | { kind: "refused"; message: string };

/** What the run does, from what the core database holds: the writes (none when all stands) and what to say. */
export function planAdminBootstrap(
  input: AdminInput,
  state: AdminBootstrapState,
  newUserId: () => string,
): { outcome: BootstrapOutcome; write: AdminBootstrapWrite | null } {
  const { person, staff, phones } = state;
  const linksPhone = !phones.includes(input.phone.msisdn);
  // Sign-in's own limit on a person's numbers (functions/auth/phones.ts); more is more ways in.
  if (linksPhone && phones.length >= MAX_PHONES) {
    return {
      outcome: {
        kind: "refused",
        message: `${input.email} already has ${phones.length} phone numbers linked, the most a person may have; run this again with one of them.`,
      },
      write: null,
    };
  }
  const isAdmin = staff?.role === "Platform Administrator" && staff.status === "active";
  if (person && person.status === "active" && isAdmin && !linksPhone) {
    return { outcome: { kind: "unchanged", userId: person.id, name: person.name }, write: null };
  }
  const userId = person?.id ?? newUserId();
  const name = person?.name ?? input.name;
  // Re-enabled: someone (or their account) was switched off on purpose and is let back in.
  const reenabled = person?.status === "disabled" || staff?.status === "disabled";
  const kind = !person ? "created" : reenabled ? "reenabled" : "promoted";
  const before = person ? { role: staff?.role ?? null, status: staff?.status ?? null, personStatus: person.status } : null;
  return {
    outcome: { kind, userId, name, linksPhone },
    write: {
      userId,
      // A person's name is theirs (decision 029): an existing account keeps its own.
      newPerson: person ? null : { email: input.email, name: input.name },
      msisdn: input.phone.msisdn,
      audit: {
        action: reenabled ? "platform.staff.reenabled" : "platform.staff.bootstrapped",
        before,
        // The number masked, as every audit entry shows one (app/lib/forms/phone.ts maskPhone).
        after: { role: "Platform Administrator", status: "active", email: input.email, phone: input.phone.masked, phoneAdded: linksPhone },
      },
    },
  };
}

/** Reads the core database, then writes in one batch; the state read just before decides the outcome's words. */
export async function bootstrapPlatformAdmin(
  core: Db,
  input: AdminInput,
  options: { now: number; meta: RequestMeta; newUserId?: () => string },
): Promise<BootstrapOutcome> {
  const state = await adminBootstrapState(core, input.email);
  const { outcome, write } = planAdminBootstrap(input, state, options.newUserId ?? (() => `usr_${crypto.randomUUID()}`));
  if (write) await core.batch(bootstrapAdminStatements(core, write, options.meta, new Date(options.now).toISOString()));
  return outcome;
}
