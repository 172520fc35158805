// A deployment may insist on passkeys for the platform's decisions (PLATFORM_DECISIONS_NEED_PASSKEY, decision 039), as a
// business may for its own: the check dialog then offers no code, a code is refused, and a check made by code does not
// allow a decision; other platform checks (a key's) still take a code.
import { beforeAll, describe, expect, it } from "vitest";
import { mintFreshCheck } from "../support/fresh-check";
import { askLifecycle, EFUA, KWAME, makeStaff, postForm } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { ACCRA } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { PLATFORM_CHECKS } from "#server/auth/fresh-check";

const portal = usePortal({ vars: { PLATFORM_DECISIONS_NEED_PASSKEY: "on" } });
let efua: { Cookie: string };
let kwame: { Cookie: string };

beforeAll(async () => {
  await makeStaff(portal().core(), EFUA);
  await makeStaff(portal().core(), KWAME);
  efua = await signedInCookie(portal(), EFUA.email, null);
  kwame = await signedInCookie(portal(), KWAME.email, null);
});

interface Offer {
  passkeyOnly: boolean;
  phone: string | null;
}

async function offered(binding: string): Promise<Offer> {
  const answer = await portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}`, { headers: kwame });
  return answer.json<Offer>();
}

describe("a platform that insists on passkeys for its decisions", () => {
  it("offers no code for a decision, and still one for a key", async () => {
    expect(await offered("platform:decide:preq_1")).toMatchObject({ passkeyOnly: true, phone: null });
    expect(await offered("platform:key:create:abc")).toMatchObject({ passkeyOnly: false });
  });

  it("does not let a check made by code decide, and does with one made by a passkey", async () => {
    const id = await askLifecycle(portal(), ACCRA, "suspend", "Passkeys only", efua);
    const binding = `platform:decide:${id}`;
    await mintFreshCheck(portal().core(), kwame, PLATFORM_CHECKS, binding, { method: "sms" });
    expect((await postForm(portal(), `/platform/requests/${id}`, { intent: "approve" }, kwame)).status).toBe(428);
    await mintFreshCheck(portal().core(), kwame, PLATFORM_CHECKS, binding, { method: "passkey" });
    expect((await postForm(portal(), `/platform/requests/${id}`, { intent: "approve" }, kwame)).status).toBe(302);
  });
});
