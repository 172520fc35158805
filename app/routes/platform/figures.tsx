// How the platform's screens write their figures: counts, GHS sums, ages and durations, from the loaders' numbers.
import { formatAmount, formatCount } from "#app/lib/format";

/** "12 · GHS 1,234.50": a count of payments and their sum in integer pesewas. */
export function CountAndSum({ count, amount }: { count: number; amount: number }) {
  return (
    <>
      {formatCount(count)}
      {count > 0 ? <span className="cell-sub">GHS {formatAmount(amount)}</span> : null}
    </>
  );
}

/** A span of time as people say it: "40 s", "12 min", "3 h 5 min", "2 days 4 h". */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? "day" : "days"}${hours % 24 ? ` ${hours % 24} h` : ""}`;
}

/** A job's duration: milliseconds under a second, then as a span. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatSpan(ms);
}

/** Failed over tried as a percentage with "x of y"; a dash when nothing was tried. */
export function FailureRate({ tried, failing, rate }: { tried: number; failing: number; rate: number | null }) {
  if (rate === null) return <>—</>;
  return (
    <>
      {`${rate}%`}
      <span className="cell-sub">{`${formatCount(failing)} of ${formatCount(tried)}`}</span>
    </>
  );
}

/** Bytes as KB, MB or GB (powers of 1,000, as D1 states its 10 GB limit). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "Not reported";
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(0)} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}
