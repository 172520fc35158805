// npm run bench:http [-- --url http://127.0.0.1:8787 --seconds 5 --connections 10 --write]
// Requests per second and latency of a few paths on a running portal (start it
// with `npm start` in another terminal, or `WRANGLER_LOG=warn npm start` to keep
// its log quiet). Loopback targets only; each path runs for a bounded time.
import { parseArgs } from "node:util";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    url: { type: "string", default: "http://127.0.0.1:8787" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
  },
});
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog("http", "npm run bench:http -- --write", values.write);
const base = new URL(values.url);
if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) {
  console.error("This benchmark only targets this machine (127.0.0.1, localhost or [::1]).");
  process.exit(2);
}
const seconds = Math.min(60, Math.max(1, Number(values.seconds)));
const connections = Math.min(64, Math.max(1, Number(values.connections)));

const PATHS = [
  ["document, no loader data (UI kit)", "/__dev/ui"],
  ["document, 404 in the shell", "/no-such-page"],
  ["JSON from KV (build id)", "/builds/latest.json?t=1"],
  ["static asset", "/favicon.svg"],
] as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(path: string) {
  const url = new URL(path, base).toString();
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          const response = await fetch(url);
          await response.arrayBuffer();
          if (response.status >= 500) errors += 1;
          latencies.push(performance.now() - started);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, errors, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) };
}

try {
  await fetch(new URL("/builds/latest.json?t=0", base));
} catch {
  console.error(`Nothing answers at ${base.origin}: start the portal with \`npm start\` first.`);
  process.exit(2);
}
report.line(`${base.origin}, ${connections} connections, ${seconds} s per path`);
report.line(`${"path".padEnd(40)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`);
for (const [label, path] of PATHS) {
  const r = await measure(path);
  report.line(
    `${label.padEnd(40)} ${(r.count / seconds).toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.errors).padStart(7)}`,
  );
}
report.finish();
