// The top bar's search: a button that looks like the box (the magnifier alone at 980 px and below) and `/` from
// anywhere but a field open the search dialog. The dialog's code is not in the first load of every page (decision 043):
// it loads once the page is idle, or when the search is first opened.
import { useCallback, useEffect, useRef, useState } from "react";
import { codeOnDemand, loadWhenIdle } from "../code-on-demand";

const panel = codeOnDemand("search-panel", () => import("./search-panel").then((module) => module.SearchPanel));
loadWhenIdle(panel);

/** Where `/` is a character being typed, not the shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function TopBarSearch() {
  const [state, setState] = useState<"closed" | "loading" | "open" | "failed">("closed");
  const button = useRef<HTMLButtonElement>(null);

  const open = useCallback(() => {
    setState("loading");
    panel.preload().then(
      () => setState("open"),
      () => setState("failed"),
    );
  }, []);

  // Back to the button once the dialog has gone: while it is open, the rest of the page is inert and takes no focus.
  const refocus = useRef(false);
  const close = useCallback(() => {
    refocus.current = true;
    setState("closed");
  }, []);
  useEffect(() => {
    if (state !== "closed" || !refocus.current) return;
    refocus.current = false;
    button.current?.focus();
  }, [state]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || isTyping(event.target)) return;
      // A modal (the fresh check, a notice) owns the keyboard while it is open.
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      open();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const Panel = state === "open" ? panel.read() : null;
  return (
    <div className="topbar-search">
      <button
        ref={button}
        type="button"
        className="topbar-search__button"
        aria-haspopup="dialog"
        aria-keyshortcuts="/"
        aria-busy={state === "loading"}
        onClick={open}
        data-testid="search-button"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
        <span className="topbar-search__label">Search</span>
        <kbd className="topbar-search__key" aria-hidden="true">
          /
        </kbd>
      </button>
      {state === "failed" ? (
        <p className="topbar-search__failed" role="alert">
          Search could not load. Check your connection and try again.
        </p>
      ) : null}
      {Panel ? <Panel onClose={close} /> : null}
    </div>
  );
}
