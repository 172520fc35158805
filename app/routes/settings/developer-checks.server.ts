// Which Developers-tab forms need a fresh check (issue 15, point 2), and for exactly what: making or rolling an API
// key, and making, rolling or revealing a webhook endpoint's secret (each hands out a secret that moves or proves
// money events). Free text (a key's name, a URL) is bound by its hash. A form that is not even filled in needs no check
// yet: its own validation answers first.
import { checkBindings, underFreshCheck } from "../../../functions/auth/fresh-check";
import type { TenantRequest } from "../../../functions/guards";
import { sha256Hex } from "../../../functions/sha256";

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const fingerprint = async (value: string) => (await sha256Hex(value)).slice(0, 32);

export async function developerCheckBinding(form: Record<string, unknown>): Promise<string | null> {
  const id = text(form.endpointId) || text(form.keyId);
  switch (form.intent) {
    case "create-key":
      return text(form.name) ? checkBindings.apiKey("create", await fingerprint(text(form.name))) : null;
    case "roll-key":
      return id ? checkBindings.apiKey("roll", id) : null;
    case "create":
      return text(form.url) ? checkBindings.endpoint("create", await fingerprint(text(form.url))) : null;
    case "roll":
      return id && form.confirm === "yes" ? checkBindings.endpoint("roll", id) : null;
    case "reveal":
      return id ? checkBindings.endpoint("reveal", id) : null;
    default:
      return null;
  }
}

/** Runs a Developers-tab form, under a fresh check when it needs one. */
export async function underDeveloperCheck<T>(request: Request, signedIn: TenantRequest, form: Record<string, unknown>, act: () => Promise<T>) {
  const binding = await developerCheckBinding(form);
  return binding ? underFreshCheck(request, signedIn, binding, form, act) : act();
}
