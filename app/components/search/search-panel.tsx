// The search dialog of the top bar: a combobox whose listbox holds the results grouped by kind, each option a link
// (the WAI-ARIA combobox pattern with aria-activedescendant: the focus stays in the box). ArrowDown and ArrowUp move
// through the options, Enter opens the one marked, Escape closes. It asks GET /search as the person types, a moment
// after they stop, and a newer text aborts the older request: on a slow connection only the last answer is shown, and
// one that never comes leaves the box usable, saying so.
import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { SEARCH_PATH, type SearchAnswer, type SearchItem } from "./search-answer";

/** A pause in typing long enough to be worth a request, short enough not to be felt. */
const DEBOUNCE_MS = 250;

/** The server finds nothing in less (app/routes/search/search.server.ts). */
const MIN_CHARACTERS = 2;

type Asked = { status: "idle" } | { status: "loading"; answer: SearchAnswer | null } | { status: "done"; answer: SearchAnswer } | { status: "failed" };

function statusText(asked: Asked, typed: string, count: number): string {
  switch (asked.status) {
    case "idle":
      return typed
        ? "Keep typing: at least 2 characters."
        : "Find a payment by its reference or last digits, a merchant, a terminal's serial, a person, a dispute or a settlement.";
    case "loading":
      return "Searching…";
    case "failed":
      return "The search did not answer. Check your connection; it tries again as you type.";
    default:
      return count === 0 ? `Nothing found for “${asked.answer.q}”.` : `${count} ${count === 1 ? "result" : "results"} for “${asked.answer.q}”.`;
  }
}

export function SearchPanel({ onClose }: { onClose: () => void }) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  // Closed here, then the focus back on the top bar's button: while the dialog is open the page behind it is inert.
  const close = () => {
    dialog.current?.close();
    document.querySelector<HTMLElement>(".topbar-search__button")?.focus();
    onClose();
  };
  // Another page (the browser's back button) closes it too.
  const { key } = useLocation();
  const openedAt = useRef(key);
  useEffect(() => {
    if (key !== openedAt.current) onClose();
  }, [key, onClose]);
  const [typed, setTyped] = useState("");
  const [asked, setAsked] = useState<Asked>({ status: "idle" });
  const [active, setActive] = useState(0);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    input.current?.focus();
    return () => element?.close();
  }, []);

  const query = typed.trim();
  useEffect(() => {
    if ([...query].length < MIN_CHARACTERS) {
      setAsked({ status: "idle" });
      return;
    }
    // What was found for the text before stays in view, marked busy, until this text's answer comes.
    setAsked((before) => ({ status: "loading", answer: before.status === "done" || before.status === "loading" ? before.answer : null }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${SEARCH_PATH}?${new URLSearchParams({ q: query })}`, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then(async (response) => {
          if (!response.ok) throw new Error(`The search answered ${response.status}`);
          return response.json<SearchAnswer>();
        })
        .then(
          (answer) => {
            setAsked({ status: "done", answer });
            setActive(0);
          },
          () => {
            if (!controller.signal.aborted) setAsked({ status: "failed" });
          },
        );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const answer = asked.status === "done" || asked.status === "loading" ? asked.answer : null;
  const groups = answer?.groups ?? [];
  const items: SearchItem[] = groups.flatMap((group) => group.items);
  const optionId = (index: number) => `${ids}-option-${index}`;
  const listboxId = `${ids}-results`;
  const statusId = `${ids}-status`;
  const current = asked.status === "done" && items.length > 0 ? Math.min(active, items.length - 1) : -1;

  const go = (item: SearchItem) => {
    close();
    navigate(item.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && items.length > 0) {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((Math.max(current, 0) + step + items.length) % items.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      // Only what was found for the text as it stands now: an older answer may still be on the screen.
      const item = current >= 0 ? items[current] : undefined;
      if (item) go(item);
    }
  };

  let index = -1;
  return (
    <dialog
      ref={dialog}
      className="search-dialog"
      aria-label="Search"
      data-testid="search-dialog"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <div className="search-dialog__box">
        <div className="search-dialog__field">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-3.5-3.5" />
          </svg>
          <input
            ref={input}
            type="text"
            role="combobox"
            aria-label="Search"
            aria-autocomplete="list"
            aria-expanded={items.length > 0}
            aria-controls={items.length > 0 ? listboxId : undefined}
            aria-activedescendant={current >= 0 ? optionId(current) : undefined}
            aria-describedby={statusId}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="go"
            placeholder="Reference, merchant, serial, person, phone…"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="button" className="search-dialog__close" onClick={close}>
            <span aria-hidden="true">Esc</span>
            <span className="visually-hidden">Close search</span>
          </button>
        </div>
        <p id={statusId} className="search-dialog__status" role="status" data-testid="search-status">
          {statusText(asked, query, items.length)}
        </p>
        {items.length > 0 ? (
          <div id={listboxId} role="listbox" aria-label="Results" aria-busy={asked.status === "loading"} className="search-results">
            {groups.map((group) => (
              <div key={group.kind} role="group" aria-labelledby={`${ids}-${group.kind}`} className="search-results__group" data-kind={group.kind}>
                <div id={`${ids}-${group.kind}`} role="presentation" className="search-results__label">
                  {group.label}
                </div>
                {group.items.map((item) => {
                  index += 1;
                  const mine = index;
                  return (
                    <Link
                      key={item.id}
                      id={optionId(mine)}
                      to={item.href}
                      role="option"
                      tabIndex={-1}
                      aria-selected={mine === current}
                      className={mine === current ? "search-result search-result--active" : "search-result"}
                      onMouseMove={() => setActive(mine)}
                      onClick={close}
                    >
                      <span className="search-result__title">{item.title}</span>
                      {item.detail ? <span className="search-result__detail">{item.detail}</span> : null}
                    </Link>
                  );
                })}
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </dialog>
  );
}
