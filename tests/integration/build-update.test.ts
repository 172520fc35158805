// Build-update check, server side: the deployed id comes from KV, uncached.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LATEST_BUILD_KEY, ROOT } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

describe("GET /builds/latest.json", () => {
  it("answers null before any build id is published", async () => {
    const response = await portal().fetch(`/builds/latest.json?t=${Date.now()}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ buildId: null });
  });

  it("answers the id in KV, never cached", async () => {
    const kv = await portal().kv();
    await kv.put(LATEST_BUILD_KEY, "build-one");
    const first = await portal().fetch(`/builds/latest.json?t=${Date.now()}`);
    expect(await first.json()).toEqual({ buildId: "build-one" });
    expect(first.headers.get("Cache-Control")).toContain("no-store");
    expect(first.headers.get("Content-Type")).toContain("application/json");

    await kv.put(LATEST_BUILD_KEY, "build-two");
    const second = await portal().fetch(`/builds/latest.json?t=${Date.now()}`);
    expect(await second.json()).toEqual({ buildId: "build-two" });
  });

  it("refuses a t that is not a timestamp, with a message", async () => {
    const response = await portal().fetch("/builds/latest.json?t=<script>");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "t must be a timestamp in milliseconds" });
  });
});

describe("the client build", () => {
  // The id rides on the document, not in the browser's code: a build whose browser code did not change keeps every
  // file name of the one before, so browsers keep what they cached, and the bundle budget measures the same bytes.
  it("keeps this build's id out of its code, and every document says it on <html data-build>", async () => {
    const assets = join(ROOT, "build/client/assets");
    const js = readdirSync(assets)
      .filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(join(assets, name), "utf8"));
    expect(js.some((source) => source.includes(portal().buildId))).toBe(false);
    const page = await portal().fetch("/login");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<html lang="en" data-build="${portal().buildId}">`);
  });
});
