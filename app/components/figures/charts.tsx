// Charts drawn as SVG by the server: no chart library, and nothing the CSP would block (sizes are SVG attributes, not
// inline styles). A column chart has its axes (amounts up the side, days along the bottom, written in HTML so a
// stretched drawing cannot distort them) and every column is an image named with its day and value: one stop in the
// tab order, the arrow keys go from column to column, and the column in focus or under the pointer is written out
// under the chart (the newest one until then), so no value is only on hover. The tables beside them carry the numbers.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { formatAmount, formatCount } from "#app/lib/format";

export interface Bar {
  key: string;
  value: number;
  /** The column's name for screen readers and the line under the chart: its day, value and count. */
  title: string;
  /** Its label on the axis along the bottom (MMM DD). */
  axis: string;
}

/** "1 payment", "1,204 payments": a column's count in its name. */
export const paymentsCount = (count: number): string => `${formatCount(count)} ${count === 1 ? "payment" : "payments"}`;

/** Beyond this many columns each is a pixel or two wide: one shape draws them, and the table has each day's numbers. */
const MANY_BARS = 92;

const WIDTH = 600;
const HEIGHT = 160;

/** The top of the amount axis: the largest column rounded up to 1, 2, 2.5 or 5 times a power of ten cedis, in pesewas. */
export function axisTop(max: number): number {
  const cedis = max / 100;
  if (!(cedis > 0)) return 100;
  const magnitude = 10 ** Math.floor(Math.log10(cedis));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= cedis) ?? 10;
  return Math.round(step * magnitude * 100);
}

/** Columns over time (oldest left), in GHS from integer pesewas. */
export function ColumnChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const top = axisTop(Math.max(0, ...bars.map((b) => b.value)));
  const many = bars.length > MANY_BARS;
  const gap = many ? 0 : bars.length > 60 ? 1 : 4;
  const bar = (WIDTH - gap * (bars.length - 1)) / Math.max(1, bars.length);
  const heightOf = (value: number) => Math.max(value > 0 ? 2 : 0, (Math.min(value, top) / top) * HEIGHT);
  // Rounded to a tenth: a year of columns is a few kilobytes of path, not 365 elements.
  const at = (value: number) => Math.round(value * 10) / 10;
  const last = bars.length - 1;
  // The column that takes the tab stop, and the one written out under the chart (focused, pointed at, or the newest).
  const [chosen, setCurrent] = useState(last);
  const current = Math.min(chosen, last);
  const [shown, setShown] = useState<number | null>(null);
  // A year's columns are one shape on the server; their focusable stand-ins arrive with the script.
  const [withScript, setWithScript] = useState(false);
  useEffect(() => setWithScript(true), []);
  const svg = useRef<SVGSVGElement>(null);

  const move = (event: KeyboardEvent<SVGRectElement>, index: number) => {
    const steps: Record<string, number> = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last, PageUp: index - 7, PageDown: index + 7 };
    const next = steps[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = Math.max(0, Math.min(last, next));
    setCurrent(target);
    svg.current?.querySelectorAll<SVGRectElement>("[data-column]")[target]?.focus();
  };
  const column = (b: Bar, index: number, className: string, y: number, h: number) => (
    <rect
      key={b.key}
      data-column=""
      role="img"
      aria-label={b.title}
      tabIndex={index === current ? 0 : -1}
      x={index * (bar + gap)}
      y={y}
      width={bar}
      height={h}
      rx={bars.length > 60 ? 0 : 2}
      className={className}
      onFocus={() => {
        setCurrent(index);
        setShown(index);
      }}
      onBlur={() => setShown(null)}
      onMouseEnter={() => setShown(index)}
      onMouseLeave={() => setShown(null)}
      onKeyDown={(event) => move(event, index)}
    />
  );
  const interactive = !many || withScript;
  const readout = bars[shown ?? last];
  return (
    <figure className="chart">
      <div className="chart__plot">
        <div className="chart__y" aria-hidden="true">
          <span className="chart__unit">GHS</span>
          <span className="chart__ticks">
            {[top, top / 2, 0].map((tick) => (
              <span key={tick}>{formatAmount(Math.round(tick))}</span>
            ))}
          </span>
        </div>
        <svg
          ref={svg}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role={interactive ? "group" : "img"}
          aria-label={label}
          preserveAspectRatio="none"
          className="chart__svg"
        >
          {[0, HEIGHT / 2, HEIGHT].map((y) => (
            <line key={y} x1={0} x2={WIDTH} y1={y} y2={y} className="chart__grid" aria-hidden="true" />
          ))}
          {many ? (
            <>
              <path
                className="chart__bar"
                d={bars
                  .map((b, index) => ({ x: index * bar, h: heightOf(b.value) }))
                  .filter(({ h }) => h > 0)
                  .map(({ x, h }) => `M${at(x)} ${HEIGHT}v${-at(h)}h${at(bar)}v${at(h)}z`)
                  .join("")}
                aria-hidden="true"
              />
              {withScript ? bars.map((b, index) => column(b, index, "chart__hit", 0, HEIGHT)) : null}
            </>
          ) : (
            bars.map((b, index) => {
              const h = heightOf(b.value);
              return column(b, index, "chart__bar", HEIGHT - h, h);
            })
          )}
        </svg>
        <div className="chart__x" aria-hidden="true">
          {/* The first, the middle and the last column's day. */}
          {[...new Set([bars[0], bars[last >> 1], bars[last]])].map((b) => (
            <span key={b?.key}>{b?.axis}</span>
          ))}
        </div>
      </div>
      {/* What a screen reader hears from the column in focus, written out for everyone else. */}
      <figcaption className="chart__readout" aria-hidden="true">
        {readout?.title ?? ""}
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
