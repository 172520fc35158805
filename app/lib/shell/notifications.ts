// Notification state of SPEC sections 3 and 8: an alert and a response modal,
// each with its own show flag. Kept as a pure reducer so the rules are testable
// without a browser; app/components/notifications.tsx renders it.

export const PRIORITY_ALERT_MS = 12_000;

export type NoticeKind = "danger" | "warning" | "success" | "info";
export const NOTICE_KINDS: readonly NoticeKind[] = ["danger", "warning", "success", "info"];

export interface Notice {
  kind: NoticeKind;
  message: string;
  title?: string;
  /** A priority notice stays for PRIORITY_ALERT_MS, through navigations, then clears itself. */
  priority?: boolean;
  /** When a priority notice clears itself (epoch ms), fixed when it is shown. */
  expiresAt?: number;
}

/** The notice as shown now: a priority one gets its expiry time. */
export function stampNotice(notice: Notice, now: number): Notice {
  return notice.priority ? { ...notice, expiresAt: now + PRIORITY_ALERT_MS } : notice;
}

export interface NotificationState {
  alert: (Notice & { seq: number }) | null;
  response: (Notice & { seq: number }) | null;
  showAlert: boolean;
  showResponse: boolean;
  seq: number;
}

export type NotificationAction =
  | { type: "setAlert"; notice: Notice }
  | { type: "resetAlert"; seq?: number }
  | { type: "setResponse"; notice: Notice }
  | { type: "resetResponse"; seq?: number }
  /**
   * A navigation finished: plain notices go, priority ones stay their time. A
   * notice raised while the navigation ran (seq above `startedAt`, the seq when
   * it began) is about the page it lands on, e.g. a form send that lost its
   * connection, and stays.
   */
  | { type: "navigated"; startedAt?: number };

export const initialNotifications: NotificationState = {
  alert: null,
  response: null,
  showAlert: false,
  showResponse: false,
  seq: 0,
};

export function notificationsReducer(state: NotificationState, action: NotificationAction): NotificationState {
  switch (action.type) {
    case "setAlert": {
      const seq = state.seq + 1;
      return { ...state, seq, alert: { ...action.notice, seq }, showAlert: true };
    }
    case "setResponse": {
      const seq = state.seq + 1;
      return { ...state, seq, response: { ...action.notice, seq }, showResponse: true };
    }
    // A timer for an older notice must not clear a newer one: resets may name the notice.
    case "resetAlert":
      if (action.seq !== undefined && state.alert?.seq !== action.seq) return state;
      return { ...state, alert: null, showAlert: false };
    case "resetResponse":
      if (action.seq !== undefined && state.response?.seq !== action.seq) return state;
      return { ...state, response: null, showResponse: false };
    case "navigated": {
      const raisedMeanwhile = action.startedAt !== undefined && (state.alert?.seq ?? 0) > action.startedAt;
      const keepAlert = state.alert?.priority === true || raisedMeanwhile;
      if (keepAlert || !state.alert) return state;
      return { ...state, alert: null, showAlert: false };
    }
  }
}
