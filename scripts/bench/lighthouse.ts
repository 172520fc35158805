// npm run bench:lighthouse -- [--port 8794] [--runs 3]
// Lighthouse's mobile performance audit (its default: a Moto G Power, simulated slow 4G, 4x CPU slowdown) of the four
// pages issue 30 names, signed in, on the last build served by `wrangler dev` (scripts/lib/bench-portal.ts), in
// Debian's Chromium (CHROMIUM_PATH to use another). Prints, per page, the median of `runs` runs: the performance
// score, LCP, FCP, total blocking time, and the document's and the JavaScript's transfer sizes. A script, not a test:
// the numbers depend on the machine (decision 043).
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CHROMIUM_ARGS, chromiumPath } from "../../tests/support/chromium";
import { startBenchPortal } from "../lib/bench-portal";

const { values } = parseArgs({ options: { port: { type: "string", default: "8794" }, runs: { type: "string", default: "3" } } });
const runs = Math.min(9, Math.max(1, Number(values.runs) || 3));
const PAGES = ["/", "/transactions", "/merchants", "/money/merchant-funds"];
const DEBUGGING_PORT = 9333;

interface Run {
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  documentBytes: number;
  scriptBytes: number;
}

/** Sets cookies in the browser's default profile, through its DevTools endpoint. */
async function setCookies(cookies: { name: string; value: string; url: string; httpOnly: boolean; sameSite: "Lax" }[]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${DEBUGGING_PORT}`);
  await browser.contexts()[0]!.addCookies(cookies);
  await browser.close();
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const portal = await startBenchPortal(Number(values.port) || 8794, "npm run bench:lighthouse");
const profile = mkdtempSync(join(tmpdir(), "pp-lighthouse-"));
const chrome = spawn(
  chromiumPath(),
  [...CHROMIUM_ARGS, "--headless=new", `--remote-debugging-port=${DEBUGGING_PORT}`, `--user-data-dir=${profile}`, "about:blank"],
  {
    stdio: "ignore",
    detached: true,
  },
);
try {
  for (let i = 0; i < 50; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${DEBUGGING_PORT}/json/version`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`Lighthouse mobile (simulated slow 4G, 4x CPU), signed in, median of ${runs}, ${portal.base}`);
  console.log(
    `${"page".padEnd(24)} ${"perf".padStart(5)} ${"LCP s".padStart(6)} ${"FCP s".padStart(6)} ${"TBT ms".padStart(7)} ${"doc kB".padStart(7)} ${"JS kB".padStart(6)}`,
  );
  for (const path of PAGES) {
    const measured: Run[] = [];
    for (let run = 0; run < runs; run += 1) {
      // The session cookie in the browser's own jar (a Cookie header of Lighthouse's would pin the first value, and the
      // portal moves a session on as it is used), set again before each run.
      await setCookies(portal.cookies);
      const result = await lighthouse(`${portal.base}${path}`, { port: DEBUGGING_PORT, output: "json", logLevel: "error", onlyCategories: ["performance"] });
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== path) throw new Error(`${path} ended at ${lhr.finalDisplayedUrl}: not signed in?`);
      const items = (lhr.audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
      const size = (type: string) => items.find((item) => item.resourceType === type)?.transferSize ?? 0;
      measured.push({
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
        fcp: lhr.audits["first-contentful-paint"]?.numericValue ?? Number.NaN,
        tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
        documentBytes: size("document"),
        scriptBytes: size("script"),
      });
    }
    const m = (key: keyof Run) => median(measured.map((r) => r[key]));
    console.log(
      `${path.padEnd(24)} ${String(m("score")).padStart(5)} ${(m("lcp") / 1000).toFixed(2).padStart(6)} ${(m("fcp") / 1000).toFixed(2).padStart(6)} ${m("tbt").toFixed(0).padStart(7)} ${(m("documentBytes") / 1024).toFixed(1).padStart(7)} ${(m("scriptBytes") / 1024).toFixed(1).padStart(6)}`,
    );
  }
} finally {
  try {
    process.kill(-chrome.pid!, "SIGTERM");
  } catch {
    // already gone
  }
  portal.stop();
  rmSync(profile, { recursive: true, force: true });
}
