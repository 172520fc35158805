// npm run bench:events [-- --url http://127.0.0.1:8787 --seconds 5 --connections 10 --sink-port 8799 --write]
//
// Analytics throughput of a running portal (`npm start` in another terminal;
// `WRANGLER_LOG=warn npm start` keeps its log quiet). Loopback targets only, and
// every phase is bounded in time.
//   1. accepted/s: valid events POSTed to /api/events for --seconds, by
//      --connections clients at once. The limit is 120 events a minute per client
//      address, so each connection moves to a new CF-Connecting-IP every 100
//      events (only a local wrangler dev keeps that header; Cloudflare overwrites it).
//   2. relayed/s: how fast the queue consumer took them off the queue, from the
//      first POST until the last accepted event was handled (at most 120 s more).
//      By default it counts events stored in D1, as /__dev/events reports them
//      (no EVENTS_ENDPOINT: the local default). With --sink-port P the script
//      also runs a local events service on 127.0.0.1:P that answers 200 and counts;
//      put EVENTS_ENDPOINT=http://127.0.0.1:P/ and EVENTS_API_KEY=bench in .dev.vars
//      before `npm start` to measure relaying over HTTP instead.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { buildEvent } from "#app/lib/analytics/analytics";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    url: { type: "string", default: "http://127.0.0.1:8787" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    "sink-port": { type: "string" },
  },
});
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog("events", "npm run bench:events -- --write", values.write);
const base = new URL(values.url);
if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) {
  console.error("This benchmark only targets this machine (127.0.0.1, localhost or [::1]).");
  process.exit(2);
}
const seconds = Math.min(60, Math.max(1, Number(values.seconds) || 5));
const connections = Math.min(64, Math.max(1, Number(values.connections) || 10));
const DRAIN_LIMIT_MS = 120_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function event() {
  return buildEvent(
    { eventId: "BenchEvent", eventDescription: "scripts/bench/events.ts", eventType: "Regular", eventValue: { type: "Int", value: 1 } },
    { title: "Bench", userAgent: "Node bench", user: null, business: null },
    Date.now(),
    randomUUID(),
  );
}

// --- the optional local events service
let sinkCount = 0;
const sink = values["sink-port"]
  ? await new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          if (request.method === "POST") sinkCount += 1;
          response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
        });
      });
      server.on("error", reject);
      server.listen(Number(values["sink-port"]), "127.0.0.1", () => resolve(server));
    })
  : null;

/** Events handled so far: at the sink, or stored in D1 as /__dev/events reports. */
async function handledCount(): Promise<number | null> {
  if (sink) return sinkCount;
  try {
    const response = await fetch(new URL("/__dev/events?limit=1", base), { headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    return (await response.json<{ total: number }>()).total;
  } catch {
    return null;
  }
}

try {
  await fetch(new URL("/builds/latest.json?t=0", base));
} catch {
  console.error(`Nothing answers at ${base.origin}: start the portal with \`npm start\` first.`);
  sink?.close();
  process.exit(2);
}

const baseline = await handledCount();
const statuses = new Map<number, number>();
const latencies: number[] = [];
let errors = 0;
// A random start, so a second run within a minute does not meet the first one's windows.
let ipCounter = Math.floor(Math.random() * 0xf00000);
const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

report.line(`${base.origin}, ${connections} connections, ${seconds} s of POST /api/events`);
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: connections }, async () => {
    let ip = nextIp();
    let sent = 0;
    while (performance.now() < end) {
      if (sent > 0 && sent % 100 === 0) ip = nextIp();
      sent += 1;
      const t0 = performance.now();
      try {
        const response = await fetch(new URL("/api/events", base), {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: base.origin, "Sec-Fetch-Site": "same-origin", "CF-Connecting-IP": ip },
          body: JSON.stringify(event()),
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        latencies.push(performance.now() - t0);
      } catch {
        errors += 1;
      }
    }
  }),
);
const postedFor = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const accepted = statuses.get(202) ?? 0;
const others = [...statuses].filter(([status]) => status !== 202).map(([status, count]) => `${status}: ${count}`);
report.line(
  `accepted ${accepted} events in ${postedFor.toFixed(1)} s: ${(accepted / postedFor).toFixed(0)} events/s accepted; ` +
    `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms` +
    (others.length > 0 ? `; other answers ${others.join(", ")}` : "") +
    (errors > 0 ? `; ${errors} network errors` : ""),
);

if (baseline === null) {
  report.line("relayed/s: not measured (no /__dev/events here: production, or an endpoint is set; use --sink-port).");
} else if (accepted > 0) {
  const target = baseline + accepted;
  const deadline = performance.now() + DRAIN_LIMIT_MS;
  let handled = baseline;
  while (performance.now() < deadline) {
    handled = (await handledCount()) ?? handled;
    if (handled >= target) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const took = (performance.now() - started) / 1000;
  const done = handled - baseline;
  const where = sink ? `at the local service on port ${values["sink-port"]}` : "stored in D1";
  report.line(
    `relayed ${done} of ${accepted} (${where}) ${took.toFixed(1)} s after the first POST: ${(done / took).toFixed(0)} events/s relayed` +
      (done < accepted ? ` (stopped waiting after ${DRAIN_LIMIT_MS / 1000} s more)` : ""),
  );
}
sink?.close();
report.finish();
