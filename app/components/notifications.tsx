import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from "react";
import { DEFAULT_ERROR_MESSAGE, errorMessage } from "../lib/errors";
import {
  PRIORITY_ALERT_MS,
  initialNotifications,
  notificationsReducer,
  type Notice,
  type NotificationState,
} from "../lib/notifications";
import type { loader as rootLoader } from "../root";

export interface ErrorHandlerOptions {
  /** Show a danger alert (default true); otherwise only log. */
  display?: boolean;
  fallback?: string;
  priority?: boolean;
}

interface NotificationsApi {
  state: NotificationState;
  showAlert: (notice: Notice) => void;
  resetAlert: () => void;
  showResponse: (notice: Notice) => void;
  resetResponse: () => void;
  /** The generic error handler of SPEC section 8. */
  handleError: (error: unknown, options?: ErrorHandlerOptions) => void;
}

const NotificationsContext = createContext<NotificationsApi | null>(null);

export function useNotifications(): NotificationsApi {
  const api = useContext(NotificationsContext);
  if (!api) throw new Error("useNotifications must be used inside NotificationsProvider");
  return api;
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(notificationsReducer, initialNotifications);
  const location = useLocation();
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const shownFlash = useRef<string | null>(null);

  // Plain notices belong to the page they were raised on.
  const firstLocation = useRef(true);
  useEffect(() => {
    if (firstLocation.current) {
      firstLocation.current = false;
      return;
    }
    dispatch({ type: "navigated" });
  }, [location.key]);

  // A flash set by the server before a redirect is shown once.
  const flash = rootData?.flash;
  useEffect(() => {
    if (!flash || shownFlash.current === flash.id) return;
    shownFlash.current = flash.id;
    dispatch({ type: "setAlert", notice: { kind: flash.kind, message: flash.message, priority: flash.priority } });
  }, [flash]);

  // Priority notices clear themselves after their time; the seq keeps an old
  // timer from clearing a newer notice.
  useEffect(() => {
    const alert = state.alert;
    if (!alert?.priority) return;
    const timer = setTimeout(() => dispatch({ type: "resetAlert", seq: alert.seq }), PRIORITY_ALERT_MS);
    return () => clearTimeout(timer);
  }, [state.alert]);
  useEffect(() => {
    const response = state.response;
    if (!response?.priority) return;
    const timer = setTimeout(() => dispatch({ type: "resetResponse", seq: response.seq }), PRIORITY_ALERT_MS);
    return () => clearTimeout(timer);
  }, [state.response]);

  const showAlert = useCallback((notice: Notice) => dispatch({ type: "setAlert", notice }), []);
  const resetAlert = useCallback(() => dispatch({ type: "resetAlert" }), []);
  const showResponse = useCallback((notice: Notice) => dispatch({ type: "setResponse", notice }), []);
  const resetResponse = useCallback(() => dispatch({ type: "resetResponse" }), []);
  const handleError = useCallback((error: unknown, options: ErrorHandlerOptions = {}) => {
    const message = errorMessage(error, options.fallback);
    console.error(message ?? DEFAULT_ERROR_MESSAGE, error);
    if (options.display === false) return;
    dispatch({
      type: "setAlert",
      notice: { kind: "danger", message: message ?? DEFAULT_ERROR_MESSAGE, priority: options.priority },
    });
    window.scrollTo({ top: 0, behavior: "smooth" });
  }, []);

  const api = useMemo(
    () => ({ state, showAlert, resetAlert, showResponse, resetResponse, handleError }),
    [state, showAlert, resetAlert, showResponse, resetResponse, handleError],
  );
  return <NotificationsContext.Provider value={api}>{children}</NotificationsContext.Provider>;
}

const KIND_LABEL: Record<Notice["kind"], string> = {
  danger: "Error",
  warning: "Warning",
  success: "Success",
  info: "Information",
};

function NoticeIcon({ kind }: { kind: Notice["kind"] }) {
  const path =
    kind === "success"
      ? "M5 12.5l4.5 4.5L19 7.5"
      : kind === "info"
        ? "M12 11v6M12 7.5v.01"
        : "M12 7v6M12 16.5v.01";
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
            <p className="notice__message">{alert.message}</p>
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
          <p>{response.message}</p>
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
