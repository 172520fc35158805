// A payout's or a refund's rail as the settlement and refund screens show it (decision 041): which rail it went through,
// the rail's own reference (monospace, with Copy, for a call to the rail's support), the rail's status word, and
// while it waits, since when. Nothing is shown for an order no rail said anything about.
import { useState, type ReactNode } from "react";
import { Details } from "./details";
import { RAIL_WAITING, type RailView } from "../lib/rails";

/**
 * The rail's reference exactly as the rail gave it, and a button that copies it. The reference is a prop, not a child,
 * so the detail cards' text rules (brand words, code wrapping) never touch it.
 */
export function RailReference({ reference }: { reference: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  // A page without the clipboard (not a secure context, an old browser) says so instead of failing silently.
  const copy = () => {
    void Promise.resolve()
      .then(() => navigator.clipboard.writeText(reference))
      .then(
        () => setCopied("yes"),
        () => setCopied("failed"),
      );
  };
  return (
    <span className="rail-ref">
      <code className="mono rail-ref__code" data-testid="rail-reference">
        {reference}
      </code>
      <button type="button" className="button copy-button" onClick={copy} aria-label={`Copy the rail's reference ${reference}`}>
        Copy
      </button>
      <span className="rail-ref__copied" role="status">
        {copied === "yes" ? "Copied." : copied === "failed" ? "Select it and copy it yourself." : ""}
      </span>
    </span>
  );
}

/** The rail's rows for a record's details card (none for a part the rail never said). */
export function railRows(view: RailView | null): (readonly [string, ReactNode])[] {
  if (!view) return [];
  return [
    ...(view.name ? ([["Sent through", view.name]] as const) : []),
    ...(view.reference ? ([["Rail's reference", <RailReference reference={view.reference} />]] as const) : []),
    ...(view.status ? ([["Rail's status", <span data-testid="rail-status">{view.status}</span>]] as const) : []),
  ];
}

/** "Waiting for the rail's answer since …", the time kept on one line. */
function waitingSentence(since: string): ReactNode {
  return (
    <>
      {`${RAIL_WAITING} since `}
      <span className="nowrap">{since}</span>
    </>
  );
}

/** The waiting line of a details card, while it waits. */
export function RailWaiting({ view }: { view: RailView | null }) {
  return view?.waitingSince ? (
    <p className="notice notice--info notice__message" data-testid="rail-waiting">
      {/* One flex item: the notice lays its children out side by side. */}
      <span>{waitingSentence(view.waitingSince)}</span>
    </p>
  ) : null;
}

/** A settlement's rail in its detail panel: a heading, its rows and the waiting line; nothing when there is no rail. */
export function RailSection({ view, title }: { view: RailView | null; title: string }) {
  if (!view) return null;
  const rows = railRows(view);
  return (
    <section aria-label={title} data-testid="rail">
      <h3>{title}</h3>
      {rows.length > 0 ? <Details rows={rows} /> : null}
      <RailWaiting view={view} />
    </section>
  );
}

/** A refund's rail in one line of a list: "Acquirer switch · <reference> Copy · succeeded", then the waiting line. */
export function RailLine({ view }: { view: RailView | null }) {
  if (!view) return null;
  return (
    <>
      {view.name || view.reference || view.status ? (
        <span className="cell-sub rail-line" data-testid="rail">
          {view.name ? <span>{view.name}</span> : null}
          {view.reference ? <RailReference reference={view.reference} /> : null}
          {view.status ? <span data-testid="rail-status">{view.status}</span> : null}
        </span>
      ) : null}
      {view.waitingSince ? (
        <span className="cell-sub" data-testid="rail-waiting">
          {waitingSentence(view.waitingSince)}
        </span>
      ) : null}
    </>
  );
}
