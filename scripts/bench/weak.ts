// npm run bench:weak -- [--port 8796] [--kbps 400] [--latency 400] [--write]
// A signed-in walk of the portal on a weak link, as merchant staff on phones over 3G meet it (decision 043), in
// Chromium with the link emulated through DevTools (Network.emulateNetworkConditions: 400 kbps each way, 400 ms round
// trip by default): the dashboard (a document load), then, in the page, the transactions, a payment, and merchant
// funds. Each step prints its time to usable (a document: loaded and hydrated; in the page: the new page rendered,
// Remix's navigation done) and the bytes that crossed the link for it (bodies and headers as sent, compressed; what the
// page loads after it is usable, the analytics sender and the first prefetch, counts for the step that caused it). Cold
// is a new browser profile; warm is the same walk again in a new tab of that profile, with what the browser kept.
// Serves the last build on the `demo` seed (scripts/lib/bench-portal.ts); run `npm run build` first. Below the table,
// the document's largest contentful paint as the browser reported it (PerformanceObserver), cold and warm: when the
// person sees the page, which comes before it is usable.
import { chromium, type Page } from "@playwright/test";
import { parseArgs } from "node:util";
import { CHROMIUM_ARGS, chromiumPath } from "../../tests/support/chromium";
import { startBenchPortal } from "../lib/bench-portal";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8796" },
    kbps: { type: "string", default: "400" },
    latency: { type: "string", default: "400" },
    write: { type: "boolean", default: false },
  },
});
const kbps = Number(values.kbps) || 400;
const latency = Number(values.latency) || 400;
/** The time a person spends on a page before the next step: what loads once the page is idle loads here. */
const READING_MS = 3_000;

interface Step {
  label: string;
  /** A document load: its largest contentful paint is read too. */
  document?: true;
  run: (page: Page) => Promise<void>;
}

const hydrated = (page: Page) => page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 120_000 });
/** Follows one of the page's links as a person would (the links of a closed menu too), and waits for the page it shows. */
async function follow(page: Page, selector: string, url: RegExp): Promise<void> {
  const link = page.locator(selector).first();
  await link.waitFor({ state: "attached", timeout: 60_000 });
  await link.evaluate((a: HTMLAnchorElement) => a.click());
  await page.waitForURL(url, { timeout: 120_000 });
  // Remix commits the URL once the data and code are here; the next frame shows them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

const STEPS: Step[] = [
  {
    label: "dashboard (document)",
    document: true,
    run: async (page) => {
      await page.goto("/", { waitUntil: "commit" });
      await hydrated(page);
    },
  },
  { label: "transactions", run: (page) => follow(page, 'a[href="/transactions"]', /\/transactions$/) },
  { label: "a payment", run: (page) => follow(page, 'a[href*="/transactions?tx="]', /[?&]tx=\d+/) },
  { label: "merchant funds", run: (page) => follow(page, 'a[href="/money/merchant-funds"]', /\/money\/merchant-funds$/) },
];

interface Measured {
  ms: number;
  /** The page's largest contentful paint, ms after its navigation started (document steps). */
  lcp?: number;
  bytes: number;
  jsBytes: number;
  requests: number;
}

/** The last largest-contentful-paint entry's time, as the page saw it. */
function largestContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({ type: "largest-contentful-paint", buffered: true });
      }),
  );
}

async function walk(page: Page): Promise<Measured[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency,
    downloadThroughput: (kbps * 1000) / 8,
    uploadThroughput: (kbps * 1000) / 8,
  });
  const types = new Map<string, string>();
  let bytes = 0;
  let jsBytes = 0;
  let requests = 0;
  cdp.on("Network.responseReceived", (event) => types.set(event.requestId, event.type));
  cdp.on("Network.loadingFinished", (event) => {
    bytes += event.encodedDataLength;
    requests += 1;
    if (types.get(event.requestId) === "Script") jsBytes += event.encodedDataLength;
  });
  const results: Measured[] = [];
  for (const step of STEPS) {
    bytes = 0;
    jsBytes = 0;
    requests = 0;
    const started = performance.now();
    await step.run(page);
    const ms = performance.now() - started;
    const lcp = step.document ? await largestContentfulPaint(page) : undefined;
    await page.waitForTimeout(READING_MS);
    results.push({ ms, lcp, bytes, jsBytes, requests });
  }
  await cdp.detach();
  return results;
}

// `--write` puts the table in docs/measurements.md, dated and with its commit.
const report = measurementLog("weak-link", "npm run bench:weak -- --write", values.write);
const portal = await startBenchPortal(Number(values.port) || 8796, "npm run bench:weak");
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
try {
  // A phone's viewport; the link is what is measured, not the CPU.
  const context = await browser.newContext({ baseURL: portal.base, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.addCookies(portal.cookies);
  const cold = await walk(await context.newPage());
  const warm = await walk(await context.newPage());
  const kB = (n: number) => `${(n / 1024).toFixed(1)}`;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)}`;
  report.line(`Weak link: ${kbps} kbps each way, ${latency} ms round trip (Chromium DevTools emulation), signed in, ${portal.base}`);
  report.line(
    `${"step".padEnd(22)} ${"cold s".padStart(7)} ${"cold kB".padStart(8)} ${"of JS".padStart(6)} ${"req".padStart(4)}   ${"warm s".padStart(7)} ${"warm kB".padStart(8)} ${"of JS".padStart(6)} ${"req".padStart(4)}`,
  );
  STEPS.forEach((step, i) => {
    const c = cold[i]!;
    const w = warm[i]!;
    report.line(
      `${step.label.padEnd(22)} ${s(c.ms).padStart(7)} ${kB(c.bytes).padStart(8)} ${kB(c.jsBytes).padStart(6)} ${String(c.requests).padStart(4)}   ${s(w.ms).padStart(7)} ${kB(w.bytes).padStart(8)} ${kB(w.jsBytes).padStart(6)} ${String(w.requests).padStart(4)}`,
    );
  });
  const total = (list: Measured[]) =>
    list.reduce((sum, m) => ({ ms: sum.ms + m.ms, bytes: sum.bytes + m.bytes, jsBytes: sum.jsBytes + m.jsBytes, requests: sum.requests + m.requests }));
  const [c, w] = [total(cold), total(warm)];
  report.line(
    `${"walk".padEnd(22)} ${s(c.ms).padStart(7)} ${kB(c.bytes).padStart(8)} ${kB(c.jsBytes).padStart(6)} ${String(c.requests).padStart(4)}   ${s(w.ms).padStart(7)} ${kB(w.bytes).padStart(8)} ${kB(w.jsBytes).padStart(6)} ${String(w.requests).padStart(4)}`,
  );
  report.line(`the dashboard's largest contentful paint: cold ${s(cold[0]!.lcp ?? Number.NaN)} s, warm ${s(warm[0]!.lcp ?? Number.NaN)} s`);
} finally {
  await browser.close();
  portal.stop();
}
report.finish();
