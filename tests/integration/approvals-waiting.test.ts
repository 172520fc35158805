// What waits for whom: the queue's "waiting for me", its count in the navigation and the boxes a checker may tick are
// the requests the engine would let that person decide. Generated requests by every maker, of every role asked for,
// about every person: each that waits for nobody but the engine would allow, or that waits for someone the engine
// then refuses, fails here by name.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { approveRequest, requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { requestsWaitingFor, waitingCountStatement } from "#server/approvals/change-requests.db";
import { ROLES, type Role } from "#server/permissions";
import type { Tenant } from "#server/tenancy/tenant";
import { actionDataOf, loaderDataOf, textOf } from "../support/html";
import { askedCheck, checkBindings, mintFreshCheck, sendChecked } from "../support/fresh-check";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, ACCRA, AMA_ACCRA, AMA_KUMASI, ESI_KUMASI, KOFI_KUMASI, KUMASI, META, newMerchant } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const PEOPLE: Tenant[] = [AMA_KUMASI, KOFI_KUMASI, ESI_KUMASI, ABENA_KUMASI];
let serial = 0;
/** People made for this file whose roles the generated requests may change (the four above keep theirs). */
const extras: string[] = [];

function merchant(): ChangeValues {
  serial += 1;
  return newMerchant("W", serial);
}

function invite(role: Role): ChangeValues {
  serial += 1;
  return { email: `waiting.${serial}@example.com`, name: `Kwabena Ɛdu ${serial}`, gender: "male", phone: `233246${String(100_000 + serial)}`, role };
}

type Ask = { kind: "merchant"; maker: number } | { kind: "invite"; maker: number; role: Role } | { kind: "role"; maker: number; target: number; role: Role };

/** Only administrators ask for people; the role a checker may not grant comes up often. */
const admin = fc.nat(1);
const role = fc.oneof(fc.constant<Role>("Super Administrator"), fc.constantFrom(...ROLES));
const ask: fc.Arbitrary<Ask> = fc.oneof(
  fc.record({ kind: fc.constant("merchant" as const), maker: fc.nat(PEOPLE.length - 1) }),
  fc.record({ kind: fc.constant("invite" as const), maker: admin, role }),
  // A target below PEOPLE.length is one of the four; above, one of the extras.
  fc.record({ kind: fc.constant("role" as const), maker: admin, target: fc.nat(PEOPLE.length + 2), role }),
);

/** The request's id and the person it changes, or null when the engine refuses to make it (a maker's rule, not a checker's). */
async function make(request: Ask): Promise<{ id: string; target: string | null } | null> {
  const maker = PEOPLE[request.maker]!;
  try {
    if (request.kind === "merchant") return { id: await requestChange(maker, META, { kind: "merchant", action: "create", after: merchant() }), target: null };
    if (request.kind === "invite")
      return { id: await requestChange(maker, META, { kind: "employee", action: "create", after: invite(request.role) }), target: null };
    const targetId = request.target < PEOPLE.length ? PEOPLE[request.target]!.userId : extras[(request.target - PEOPLE.length) % extras.length]!;
    return { id: await requestChange(maker, META, { kind: "employee", action: "update", targetId, after: { role: request.role } }), target: targetId };
  } catch {
    return null;
  }
}

async function restoreRoles(): Promise<void> {
  const db = await portal().db();
  for (const person of PEOPLE) {
    await db.prepare("UPDATE memberships SET role = ? WHERE business_id = ? AND user_id = ?").bind(person.role, KUMASI, person.userId).run();
  }
}

beforeAll(async () => {
  for (let i = 0; i < 3; i += 1) {
    const id = await requestChange(AMA_KUMASI, META, { kind: "employee", action: "create", after: invite("Viewer") });
    extras.push((await approveRequest(KOFI_KUMASI, META, id, { core: portal().core() })).targetId);
  }
});

describe("waiting for me", () => {
  it("is exactly what the engine lets each person decide", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ask, { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.nat()), async (asks, picks) => {
        const made: { id: string; target: string | null }[] = [];
        for (const request of asks) {
          const one = await make(request);
          if (one) made.push(one);
        }
        // A second change of the same person goes stale once the first is approved (a rule of the record, not of
        // who decides): one each.
        const changed = new Set<string>();
        const ids = made.filter((m) => m.target === null || (!changed.has(m.target) && changed.add(m.target))).map((m) => m.id);
        const waiting = new Map<string, Set<string>>();
        for (const person of PEOPLE) waiting.set(person.userId, await requestsWaitingFor(person, person.userId, ids));
        // Operations and Finance decide nothing, so nothing waits for them.
        expect(waiting.get(ESI_KUMASI.userId)!.size + waiting.get(ABENA_KUMASI.userId)!.size).toBe(0);
        // Not waiting for someone: the engine refuses them, and the refusal changes nothing.
        for (const person of PEOPLE) {
          for (const id of ids) {
            if (waiting.get(person.userId)!.has(id)) continue;
            await expect(approveRequest(person, META, id, { core: portal().core() }), `${person.userId} approving ${id}`).rejects.toThrow();
          }
        }
        // Waiting for someone: the engine lets them approve it.
        const pick = picks[Symbol.iterator]();
        for (const id of ids) {
          const deciders = PEOPLE.filter((person) => waiting.get(person.userId)!.has(id));
          if (deciders.length === 0) continue;
          const checker = deciders[pick.next().value % deciders.length]!;
          await approveRequest(checker, META, id, { core: portal().core() });
        }
        // A role change of one of the four is put back, so their roles stay as the tenants above say.
        await restoreRoles();
      }),
      { numRuns: 12 },
    );
  });

  it("the navigation's count is the number of requests the queue's view lists, for each person", async () => {
    for (const person of PEOPLE) {
      const counted = (await waitingCountStatement({ businessId: KUMASI, db: person.db }, person.userId).first<number>("n")) ?? -1;
      const html = await (await portal().fetch("/approvals?view=waiting", { headers: await signedInCookie(portal(), emailOf(person), KUMASI) })).text();
      const data = loaderDataOf(html)["routes/approvals"] as { total: number; waitingTotal: number | null; waitingView: boolean };
      if (person === ESI_KUMASI || person === ABENA_KUMASI) {
        // Someone who decides nothing has no such view: every request shows, and no count.
        expect([data.waitingView, data.waitingTotal]).toEqual([false, null]);
        expect(counted).toBe(0);
        continue;
      }
      expect([data.waitingView, data.total, data.waitingTotal]).toEqual([true, counted, counted]);
      expect(textOf(html)).toContain("Waiting for me");
    }
  });
});

async function statusOf(id: string): Promise<string | undefined> {
  return (await (await portal().db()).prepare("SELECT status FROM approval_requests WHERE id = ?").bind(id).first<string>("status")) ?? undefined;
}

async function deciders(id: string): Promise<string[]> {
  const { results } = await (
    await portal().db()
  )
    .prepare(
      "SELECT actor_id FROM audit_log WHERE entity = 'approval_request' AND entity_id = ? AND action IN ('request.approve', 'request.reject') ORDER BY id",
    )
    .bind(id)
    .all<{ actor_id: string }>();
  return results.map((row) => row.actor_id);
}

/** A batch as the queue's form sends it: one `ids` field per ticked box. */
function batch(intent: string, ids: string[], reason?: string): URLSearchParams {
  const form = new URLSearchParams({ intent });
  for (const id of ids) form.append("ids", id);
  if (reason !== undefined) form.set("reason", reason);
  return form;
}

function send(form: URLSearchParams, cookie: { Cookie: string }, path = "/approvals?view=waiting&kind=merchant") {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: form.toString(),
  });
}

async function checksFor(binding: string): Promise<number> {
  return (
    (await portal().core().prepare("SELECT COUNT(*) AS n FROM fresh_checks WHERE binding = ? AND used_at IS NOT NULL").bind(binding).first<number>("n")) ?? -1
  );
}

describe("deciding the requests a checker ticks", () => {
  const esiAsks = () => requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: merchant() });

  it("one fresh check for the batch; each request decided and audited on its own; a refused one named, the others done", async () => {
    const kofi = await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI);
    const [first, second] = [await esiAsks(), await esiAsks()];
    const own = await requestChange(KOFI_KUMASI, META, { kind: "merchant", action: "create", after: merchant() });
    const asked = await send(batch("approve-selected", [first, second, own]), kofi);
    expect(asked.status).toBe(428);
    const binding = askedCheck(await asked.text())!.binding;
    expect(binding).toMatch(/^decide:batch:[0-9a-f]{32}$/);
    // A check made for another batch does not allow this one.
    await mintFreshCheck(portal().core(), kofi, KUMASI, checkBindings.decisions("0".repeat(32)));
    expect((await send(batch("approve-selected", [first, second, own]), kofi)).status).toBe(428);

    const answer = await sendChecked(portal().core(), kofi, () => send(batch("approve-selected", [first, second, own]), kofi));
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const outcome = (Object.values(actionDataOf(html)).find((value) => value && typeof value === "object" && "outcome" in value) as { outcome: unknown })
      .outcome;
    expect(outcome).toMatchObject({ intent: "approve-selected", decided: 2, refused: [{ id: own, message: "You cannot decide your own request." }] });
    expect(textOf(html)).toContain("Approved 2 requests; 1 could not be decided:");
    expect(textOf(html)).toContain("You cannot decide your own request.");
    expect([await statusOf(first), await statusOf(second), await statusOf(own)]).toEqual(["approved", "approved", "pending"]);
    expect([await deciders(first), await deciders(second)]).toEqual([["usr_kofi_boateng"], ["usr_kofi_boateng"]]);
    expect(await checksFor(binding)).toBe(1);
  });

  it("a batch all decided goes back to the queue as it was, saying so; a rejection takes one reason for all", async () => {
    const ama = await signedInCookie(portal(), "ama.mensah@example.com", KUMASI);
    const ids = [await esiAsks(), await esiAsks()];
    const refused = await send(batch("reject-selected", ids, " "), ama);
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain("Give a reason for rejecting: the people who asked will read it.");
    expect(await Promise.all(ids.map(statusOf))).toEqual(["pending", "pending"]);

    const done = await sendChecked(portal().core(), ama, () => send(batch("reject-selected", ids, "Ɔkyeame must sign the form first 🙏"), ama));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/approvals?view=waiting&kind=merchant");
    expect(await Promise.all(ids.map(statusOf))).toEqual(["rejected", "rejected"]);
    const reasons = await (
      await portal().db()
    )
      .prepare("SELECT reason FROM approval_requests WHERE id IN (?, ?)")
      .bind(...ids)
      .all<{ reason: string }>();
    expect(reasons.results.map((row) => row.reason)).toEqual(["Ɔkyeame must sign the form first 🙏", "Ɔkyeame must sign the form first 🙏"]);
  });

  it("another business's request is no longer here, and nothing of it changes; those who decide nothing are refused", async () => {
    const kofi = await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI);
    const accra = await requestChange(AMA_ACCRA, META, {
      kind: "merchant",
      action: "create",
      after: { ...merchant(), code: `MER-A${serial}` },
    });
    const answer = await sendChecked(portal().core(), kofi, () => send(batch("approve-selected", [accra]), kofi));
    expect(answer.status).toBe(400);
    expect(textOf(await answer.text())).toContain("This request is no longer here.");
    const row = await portal().businessDb(ACCRA).prepare("SELECT status FROM approval_requests WHERE id = ?").bind(accra).first<string>("status");
    expect(row).toBe("pending");

    const esi = await signedInCookie(portal(), "esi.owusu@example.com", KUMASI);
    expect((await send(batch("approve-selected", [await esiAsks()]), esi)).status).toBe(403);
  });
});

function emailOf(person: Tenant): string {
  return {
    usr_ama_mensah: "ama.mensah@example.com",
    usr_kofi_boateng: "kofi.boateng@example.com",
    usr_esi_owusu: "esi.owusu@example.com",
    usr_abena_darko: "abena.darko@example.com",
  }[person.userId]!;
}
