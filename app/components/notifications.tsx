import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { DEFAULT_ERROR_MESSAGE, errorMessage } from "../lib/errors";
import {
  initialNotifications,
  notificationsReducer,
  stampNotice,
  type Notice,
  type NotificationAction,
  type NotificationState,
} from "#app/lib/shell/notifications";
import { useRootData } from "#app/lib/shell/root-data";
// SPEC 9's rule alone: the shell carries no other display rule (app/lib/format.ts) in every first load.
import { replaceBrandWords } from "#server/lists/brand-word";

export interface ErrorHandlerOptions {
  /** Show a danger alert (default true); otherwise only log. */
  display?: boolean;
  fallback?: string;
  priority?: boolean;
}

// The notification state lives outside React: Remix remounts the root layout
// when it switches between a page and the error boundary, and an alert must
// survive that (a priority alert through a navigation to a 404, say). Only the
// browser ever changes it; the server always renders the initial state.
let state: NotificationState = initialNotifications;
const listeners = new Set<() => void>();
/** The last location seen, and the last flash shown, across remounts too. */
let lastLocationKey: string | null = null;
let lastFlashId: string | null = null;

function dispatch(action: NotificationAction): void {
  const next = notificationsReducer(state, action);
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getState = () => state;
const getServerState = () => initialNotifications;

export const notifications = {
  showAlert: (notice: Notice) => dispatch({ type: "setAlert", notice: stampNotice(notice, Date.now()) }),
  resetAlert: () => dispatch({ type: "resetAlert" }),
  showResponse: (notice: Notice) => dispatch({ type: "setResponse", notice: stampNotice(notice, Date.now()) }),
  resetResponse: () => dispatch({ type: "resetResponse" }),
  /** The generic error handler of SPEC section 8. */
  handleError: (error: unknown, options: ErrorHandlerOptions = {}) => {
    const message = errorMessage(error, options.fallback);
    console.error(message ?? DEFAULT_ERROR_MESSAGE, error);
    if (options.display === false) return;
    notifications.showAlert({ kind: "danger", message: message ?? DEFAULT_ERROR_MESSAGE, priority: options.priority });
    window.scrollTo({ top: 0, behavior: "smooth" });
  },
};

export function useNotifications(): typeof notifications & { state: NotificationState } {
  const current = useSyncExternalStore(subscribe, getState, getServerState);
  return { ...notifications, state: current };
}

/** Clears a priority notice when its time is up (measured from when it was shown). */
function useExpiry(notice: { seq: number; expiresAt?: number } | null, reset: (seq: number) => void) {
  useEffect(() => {
    if (notice?.expiresAt === undefined) return;
    const timer = setTimeout(() => reset(notice.seq), Math.max(0, notice.expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [notice, reset]);
}

const resetAlertSeq = (seq: number) => dispatch({ type: "resetAlert", seq });
const resetResponseSeq = (seq: number) => dispatch({ type: "resetResponse", seq });

/** Rendered once by the layout: navigation, flash and expiry rules. */
export function NotificationRules() {
  const { state: current } = useNotifications();
  const location = useLocation();
  const flash = useRootData()?.flash;

  // Plain notices belong to the page they were raised on; one raised while the
  // navigation ran (a send that lost its connection) belongs to where it lands.
  const navigation = useNavigation();
  const startedAt = useRef<number | undefined>(undefined);
  if (navigation.state !== "idle" && startedAt.current === undefined) startedAt.current = current.seq;
  useEffect(() => {
    if (lastLocationKey !== null && lastLocationKey !== location.key) dispatch({ type: "navigated", startedAt: startedAt.current });
    lastLocationKey = location.key;
    if (navigation.state === "idle") startedAt.current = undefined;
  }, [location.key, navigation.state]);

  // A flash set by the server before a redirect is shown once.
  useEffect(() => {
    if (!flash || lastFlashId === flash.id) return;
    lastFlashId = flash.id;
    notifications.showAlert({ kind: flash.kind, message: flash.message, priority: flash.priority });
  }, [flash]);

  useExpiry(current.alert, resetAlertSeq);
  useExpiry(current.response, resetResponseSeq);
  return null;
}

const KIND_LABEL: Record<Notice["kind"], string> = {
  danger: "Error",
  warning: "Warning",
  success: "Success",
  info: "Information",
};

function NoticeIcon({ kind }: { kind: Notice["kind"] }) {
  const path = kind === "success" ? "M5 12.5l4.5 4.5L19 7.5" : kind === "info" ? "M12 11v6M12 7.5v.01" : "M12 7v6M12 16.5v.01";
  return (
    <svg className="notice__icon" viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d={path} />
    </svg>
  );
}

/** The page's alert, above the content. Errors and warnings interrupt a screen reader; the rest wait. */
export function AlertRegion() {
  const { state, resetAlert } = useNotifications();
  const alert = state.showAlert ? state.alert : null;
  const urgent = alert?.kind === "danger" || alert?.kind === "warning";
  return (
    <div className="alert-region" role={urgent ? "alert" : "status"} aria-live={urgent ? "assertive" : "polite"}>
      {alert ? (
        <div className={`notice notice--${alert.kind}`} data-testid="alert" data-kind={alert.kind} data-priority={alert.priority ? "true" : undefined}>
          <NoticeIcon kind={alert.kind} />
          <div className="notice__body">
            <strong className="notice__title">{alert.title ?? KIND_LABEL[alert.kind]}</strong>
            <p className="notice__message">{replaceBrandWords(alert.message)}</p>
          </div>
          <button type="button" className="notice__close" aria-label="Dismiss" onClick={resetAlert}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The response modal: the outcome of an action that needs acknowledging. */
export function ResponseModal() {
  const { state, resetResponse } = useNotifications();
  const dialog = useRef<HTMLDialogElement>(null);
  const response = state.showResponse ? state.response : null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (response && !element.open) element.showModal();
    if (!response && element.open) element.close();
  }, [response]);

  return (
    <dialog
      ref={dialog}
      className={`modal modal--${response?.kind ?? "info"}`}
      aria-labelledby="response-title"
      data-testid="response-modal"
      onClose={resetResponse}
    >
      {response ? (
        <div className="modal__content">
          <NoticeIcon kind={response.kind} />
          <h2 id="response-title">{response.title ?? KIND_LABEL[response.kind]}</h2>
          <p>{replaceBrandWords(response.message)}</p>
          <form method="dialog">
            {/* showModal() focuses this, the first control. */}
            <button type="submit" className="button button--primary">
              OK
            </button>
          </form>
        </div>
      ) : null}
    </dialog>
  );
}
