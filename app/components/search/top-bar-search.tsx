// The top bar's search: a button that looks like the box (the magnifier alone at 980 px and below) and `/` from
// anywhere but a field open the search dialog. Every page's first load carries only this (decision 043: its icon is
// drawn by the stylesheet); the dialog's code loads once the page is idle, or when the search is first opened, and
// gives the focus back to this button when it closes.
import { useEffect, useState } from "react";
import { codeOnDemand, loadWhenIdle } from "../code-on-demand";

const panel = codeOnDemand("search-panel", () => import("./search-panel"));
loadWhenIdle(panel);

export function TopBarSearch() {
  const [open, setOpen] = useState(false);
  // Opened once its code is here; code that cannot load (offline) leaves the page as it was.
  const show = () =>
    void panel.preload().then(
      () => setOpen(true),
      () => undefined,
    );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Typed into a field, or with a modal open (the fresh check, a notice), `/` is not the shortcut.
      if (
        event.key !== "/" ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        (event.target as Element).closest("input,textarea,select,[contenteditable],dialog")
      )
        return;
      event.preventDefault();
      show();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });
  const Panel = open ? panel.read().SearchPanel : null;
  return (
    <div className="topbar-search">
      <button type="button" className="topbar-search__button" aria-haspopup="dialog" aria-keyshortcuts="/" onClick={show}>
        <span className="topbar-search__icon" />
        <span className="topbar-search__label">Search</span>
      </button>
      {Panel ? <Panel onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
