// Server-Timing (functions/plumbing/timing.ts): where a page's time went, for development
// and the benchmarks; a portal with SERVER_TIMING off, or in production, says nothing.
import { describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { useSharedPortal } from "../support/shared-portal";
import { usePortal } from "../support/use-portal";

describe("with SERVER_TIMING on", () => {
  // On is the portal's default, and these only read: the worker's shared portal.
  const portal = useSharedPortal();

  it("a signed-in page names its session, loader, D1 (with its round trips), render and total times", async () => {
    const headers = await signedInCookie(portal());
    // The first request builds the closed days' figure (functions/reports/closed-days.db.ts); the second reads it.
    expect((await portal().fetch("/reports?range=30d", { headers })).status).toBe(200);
    const response = await portal().fetch("/reports?range=30d", { headers });
    expect(response.status).toBe(200);
    const header = response.headers.get("Server-Timing") ?? "";
    for (const phase of ["session", "loader", "render", "total"]) expect(header).toMatch(new RegExp(`(^|, )${phase};dur=\\d+(\\.\\d)?(,|$)`));
    const trips = Number(/d1;dur=\d+(?:\.\d)?;desc="(\d+) quer(?:y|ies)"/.exec(header)?.[1]);
    // Two databases (decision 021), two steps: the session row (core) beside the membership (the business's database);
    // then the shell's identity and the kept report, joined on the business's database (functions/plumbing/d1-coalesce.ts),
    // beside the list of the person's businesses (core). Four round trips at most, two at a time.
    expect(trips).toBeGreaterThanOrEqual(2);
    expect(trips).toBeLessThanOrEqual(4);
  });

  it("a data request is timed too, without a render", async () => {
    const response = await portal().fetch("/reports.data?range=30d", { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(200);
    const header = response.headers.get("Server-Timing") ?? "";
    expect(header).toMatch(/loader;dur=/);
    expect(header).toMatch(/d1;dur=[\d.]+;desc="\d+ quer/);
    expect(header).not.toMatch(/render/);
  });
});

describe("with SERVER_TIMING off, or in production", () => {
  const off = usePortal({ vars: { SERVER_TIMING: "off" } });
  const production = usePortal({ vars: { SERVER_TIMING: "on", ENVIRONMENT: "production", SESSION_SECRET: "p".repeat(40) } });

  it("no answer says how it was made", async () => {
    for (const portal of [off(), production()]) {
      for (const path of ["/login", "/reports"]) {
        const response = await portal.fetch(path);
        expect(response.headers.has("Server-Timing")).toBe(false);
      }
    }
    const signedIn = await off().fetch("/reports", { headers: await signedInCookie(off()) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.has("Server-Timing")).toBe(false);
  });
});
