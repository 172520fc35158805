// Charts drawn on the server as SVG: no chart library, no script, and nothing
// the CSP would block (sizes are SVG attributes, not inline styles). Each chart
// has a text alternative; the tables beside them carry the exact numbers.

export interface Bar {
  key: string;
  value: number;
  /** Read by screen readers and shown on hover. */
  title: string;
}

/** Beyond this many columns each is a pixel or two wide: one shape draws them, and the table has each day's numbers. */
const MANY_BARS = 92;

/** Columns over time (oldest left), labelled at both ends; every column inside the view box, however many. */
export function ColumnChart({ bars, label, firstLabel, lastLabel }: { bars: readonly Bar[]; label: string; firstLabel: string; lastLabel: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = 600;
  const height = 160;
  const many = bars.length > MANY_BARS;
  const gap = many ? 0 : bars.length > 60 ? 1 : 4;
  const bar = (width - gap * (bars.length - 1)) / Math.max(1, bars.length);
  const heightOf = (value: number) => Math.max(value > 0 ? 2 : 0, (value / max) * (height - 4));
  // Rounded to a tenth: a year of columns is a few kilobytes of path, not 365 elements.
  const at = (value: number) => Math.round(value * 10) / 10;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="none" className="chart__svg">
        {many ? (
          <path
            className="chart__bar"
            d={bars
              .map((b, index) => ({ x: index * bar, h: heightOf(b.value) }))
              .filter(({ h }) => h > 0)
              .map(({ x, h }) => `M${at(x)} ${height}v${-at(h)}h${at(bar)}v${at(h)}z`)
              .join("")}
          />
        ) : (
          bars.map((b, index) => {
            const h = heightOf(b.value);
            return (
              <rect key={b.key} x={index * (bar + gap)} y={height - h} width={bar} height={h} rx={bars.length > 60 ? 0 : 2} className="chart__bar">
                <title>{b.title}</title>
              </rect>
            );
          })
        )}
      </svg>
      <figcaption className="chart__axis">
        <span>{firstLabel}</span>
        <span>{lastLabel}</span>
      </figcaption>
    </figure>
  );
}

/** A share bar for one row of a ranking: its part of the whole, so a row of 30% fills 30% whichever row is largest. */
export function ShareBar({ value, total }: { value: number; total: number }) {
  const share = total > 0 ? Math.max(0, Math.min(1, value / total)) : 0;
  return (
    <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="share-bar" aria-hidden="true">
      <rect x={0} y={0} width={100} height={8} rx={4} className="share-bar__track" />
      <rect x={0} y={0} width={share * 100} height={8} rx={4} className="share-bar__fill" />
    </svg>
  );
}
