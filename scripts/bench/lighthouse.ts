// npm run bench:lighthouse -- [--port 8794] [--runs 3] [--pages /,/transactions] [--timeout 180] [--save DIR] [--write]
//                              [--throttling simulate|devtools]
// Lighthouse's mobile performance audit (its default: a Moto G Power, simulated slow 4G, 4x CPU slowdown) of the four
// pages decision 043 measures (the first that merchant staff open), signed in, on the last build served by
// `wrangler dev` (scripts/lib/bench-portal.ts), in Debian's Chromium (CHROMIUM_PATH to use another). Prints, per page,
// the median of `runs` runs: the performance score, LCP, FCP, total blocking time, and the document's and the
// JavaScript's transfer sizes. A script, not a test: the numbers depend on the machine (decision 043). `--save DIR`
// keeps each run's report (JSON) to read its audits.
//
// "JS<LCP" is how much of the page's JavaScript had arrived when the browser painted the LCP element, in the run
// Lighthouse observed (unthrottled, on this machine): the simulation (Lantern) charges every request that finished before
// that paint to the LCP, whether or not the paint needed it, so a run where the first load's scripts (about 105 kB)
// won that race reads 0.7-1 s later than one where the paint did (decision 043). `--throttling devtools` loads the page
// through Chromium's own throttling instead (slow 4G: 562.5 ms request latency, 1.47 Mbps, CPU 4x) and reports what the
// browser saw there, with nothing simulated: a second view, in which the LCP waits only for what the paint waited for.
//
// POST /api/events is blocked during the runs: the analytics queue sends with `fetch(..., { keepalive: true })`, and
// Chromium reports no end of a keepalive request to DevTools, so Lighthouse saw it in flight forever and waited its
// full 45 s for network quiet on every run (then "checking if the page is hung"), which on a busy machine looked like
// a hang. The send happens once the page is idle, after anything Lighthouse scores. A run that still takes longer
// than `--timeout` seconds is given up: Chromium is restarted and the page's row says how many runs timed out.
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "node:net";
import { CHROMIUM_ARGS, chromiumPath } from "../../tests/support/chromium";
import { startBenchPortal } from "../lib/bench-portal";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8794" },
    runs: { type: "string", default: "3" },
    pages: { type: "string", default: "/,/transactions,/merchants,/money/merchant-funds" },
    timeout: { type: "string", default: "180" },
    save: { type: "string" },
    throttling: { type: "string", default: "simulate" },
    write: { type: "boolean", default: false },
  },
});
const runs = Math.min(9, Math.max(1, Number(values.runs) || 3));
const PAGES = values.pages.split(",").filter(Boolean);
const RUN_TIMEOUT_MS = Math.max(30, Number(values.timeout) || 180) * 1000;
if (values.throttling !== "simulate" && values.throttling !== "devtools") throw new Error("--throttling is simulate or devtools");
const throttlingMethod = values.throttling;

/** A free port on 127.0.0.1 for Chromium's DevTools (a fixed one would meet another benchmark's browser). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ port: 0, host: "127.0.0.1" }, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Run {
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  documentBytes: number;
  scriptBytes: number;
  /** Script bytes (transfer) that had arrived when the LCP element was painted, in the observed run. */
  scriptBytesBeforeLcp: number;
}

/** Sets cookies in the browser's default profile, through its DevTools endpoint. */
async function setCookies(port: number, cookies: { name: string; value: string; url: string; httpOnly: boolean; sameSite: "Lax" }[]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  await browser.contexts()[0]!.addCookies(cookies);
  await browser.close();
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const portal = await startBenchPortal(Number(values.port) || 8794, "npm run bench:lighthouse");
if (values.save) mkdirSync(values.save, { recursive: true });

interface Browser {
  port: number;
  stop: () => Promise<void>;
}

/** Chromium with a new profile and a DevTools port, ready to be driven. */
async function startChromium(): Promise<Browser> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), "pp-lighthouse-"));
  const chrome = spawn(chromiumPath(), [...CHROMIUM_ARGS, "--headless=new", `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"], {
    stdio: "ignore",
    detached: true,
  });
  const exited = new Promise<void>((resolve) => chrome.once("exit", () => resolve()));
  const stop = async () => {
    try {
      process.kill(-chrome.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    // Chromium writes its profile until it has exited (rmdir failed with ENOTEMPTY on a busy machine): wait for it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return { port, stop };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("Chromium did not open its DevTools port within 20 s");
}

/** One Lighthouse run of `path`, or why it gave no figures: it took longer than RUN_TIMEOUT_MS, or Lighthouse failed. */
async function measure(browser: Browser, path: string, name: string): Promise<Run | "timeout" | "failed"> {
  // The session cookie in the browser's own jar (a Cookie header of Lighthouse's would pin the first value, and the
  // portal moves a session on as it is used), set again before each run.
  await setCookies(browser.port, portal.cookies);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), RUN_TIMEOUT_MS)));
  const result = await Promise.race([
    lighthouse(`${portal.base}${path}`, {
      port: browser.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      blockedUrlPatterns: ["*/api/events"],
      throttlingMethod,
    }),
    timedOut,
  ]).finally(() => clearTimeout(timer));
  if (result === null) return "timeout";
  if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
  const { lhr } = result;
  // A trace Lighthouse could not read (NO_NAVSTART, seen on the busy shared machine) is one failed run, not the end.
  if (lhr.runtimeError) {
    console.error(`${path}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return "failed";
  }
  if (new URL(lhr.finalDisplayedUrl).pathname !== path) throw new Error(`${path} ended at ${lhr.finalDisplayedUrl}: not signed in?`);
  if (values.save) writeFileSync(join(values.save, `${name}.json`), JSON.stringify(lhr));
  const items = (lhr.audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  const size = (type: string) => items.find((item) => item.resourceType === type)?.transferSize ?? 0;
  // network-requests times are milliseconds after its debugData's start; metrics' observed timestamps are microseconds.
  const requests = lhr.audits["network-requests"]?.details as
    { items?: { resourceType?: string; networkEndTime?: number; transferSize?: number }[]; debugData?: { networkStartTimeTs?: number } } | undefined;
  const observed = (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaintTs?: number }[] } | undefined)?.items?.[0];
  const start = requests?.debugData?.networkStartTimeTs ?? Number.NaN;
  const lcpTs = observed?.observedLargestContentfulPaintTs ?? Number.NaN;
  const scriptBytesBeforeLcp = (requests?.items ?? [])
    .filter((item) => item.resourceType === "Script" && start + (item.networkEndTime ?? Infinity) * 1000 <= lcpTs)
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    fcp: lhr.audits["first-contentful-paint"]?.numericValue ?? Number.NaN,
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
    documentBytes: size("document"),
    scriptBytes: size("script"),
    scriptBytesBeforeLcp,
  };
}

// `--write` puts the table in docs/measurements.md (one section per throttling method), dated and with its commit.
const report = measurementLog(
  throttlingMethod === "simulate" ? "lighthouse" : "lighthouse-devtools",
  `npm run bench:lighthouse -- --write${throttlingMethod === "simulate" ? "" : " --throttling devtools"}`,
  values.write,
);
let browser = await startChromium();
try {
  const how = throttlingMethod === "simulate" ? "simulated" : "DevTools-throttled";
  report.line(`Lighthouse mobile (${how} slow 4G, 4x CPU), signed in, median of ${runs}, ${portal.base}`);
  report.line(
    `${"page".padEnd(24)} ${"perf".padStart(5)} ${"LCP s".padStart(6)} ${"FCP s".padStart(6)} ${"TBT ms".padStart(7)} ${"doc kB".padStart(7)} ${"JS kB".padStart(6)} ${"JS<LCP".padStart(7)}  runs (perf/LCP/JS<LCP kB)`,
  );
  for (const path of PAGES) {
    const measured: Run[] = [];
    const all: string[] = [];
    let timeouts = 0;
    let failed = 0;
    for (let run = 0; run < runs; run += 1) {
      const name = `${path.replace(/\W+/g, "-").replace(/^-|-$/g, "") || "dashboard"}-${run + 1}`;
      const result = await measure(browser, path, name);
      if (result === "failed") {
        failed += 1;
        continue;
      }
      if (result === "timeout") {
        timeouts += 1;
        await browser.stop();
        browser = await startChromium();
        continue;
      }
      measured.push(result);
      all.push(`${result.score}/${(result.lcp / 1000).toFixed(2)}/${(result.scriptBytesBeforeLcp / 1024).toFixed(0)}`);
    }
    if (measured.length === 0) {
      report.line(`${path.padEnd(24)} no run gave figures (${timeouts} timed out after ${RUN_TIMEOUT_MS / 1000} s, ${failed} failed)`);
      continue;
    }
    const m = (key: keyof Run) => median(measured.map((r) => r[key]));
    report.line(
      `${path.padEnd(24)} ${String(m("score")).padStart(5)} ${(m("lcp") / 1000).toFixed(2).padStart(6)} ${(m("fcp") / 1000).toFixed(2).padStart(6)} ${m("tbt").toFixed(0).padStart(7)} ${(m("documentBytes") / 1024).toFixed(1).padStart(7)} ${(m("scriptBytes") / 1024).toFixed(1).padStart(6)} ${(m("scriptBytesBeforeLcp") / 1024).toFixed(1).padStart(7)}  ${all.join(" ")}${timeouts ? ` (${timeouts} timed out)` : ""}${failed ? ` (${failed} failed)` : ""}`,
    );
  }
} finally {
  await browser.stop();
  portal.stop();
}
report.finish();
