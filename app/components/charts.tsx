// Charts drawn on the server as SVG: no chart library, no script, and nothing
// the CSP would block (sizes are SVG attributes, not inline styles). Each chart
// has a text alternative; the tables beside them carry the exact numbers.

export interface Bar {
  key: string;
  value: number;
  /** Read by screen readers and shown on hover. */
  title: string;
}

/** Columns over time (oldest left), labelled at both ends. */
export function ColumnChart({ bars, label, firstLabel, lastLabel }: { bars: readonly Bar[]; label: string; firstLabel: string; lastLabel: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = 600;
  const height = 160;
  const gap = bars.length > 60 ? 1 : 4;
  const bar = Math.max(1, (width - gap * (bars.length - 1)) / Math.max(1, bars.length));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="none" className="chart__svg">
        {bars.map((b, index) => {
          const h = Math.max(b.value > 0 ? 2 : 0, (b.value / max) * (height - 4));
          return (
            <rect key={b.key} x={index * (bar + gap)} y={height - h} width={bar} height={h} rx={bars.length > 60 ? 0 : 2} className="chart__bar">
              <title>{b.title}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="chart__axis">
        <span>{firstLabel}</span>
        <span>{lastLabel}</span>
      </figcaption>
    </figure>
  );
}

/** A share bar for one row of a ranking (its value against the largest). */
export function ShareBar({ value, max }: { value: number; max: number }) {
  const share = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
  return (
    <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="share-bar" aria-hidden="true">
      <rect x={0} y={0} width={100} height={8} rx={4} className="share-bar__track" />
      <rect x={0} y={0} width={share * 100} height={8} rx={4} className="share-bar__fill" />
    </svg>
  );
}
