import { describe, expect, it } from "vitest";
import {
  NOTICE_KINDS,
  PRIORITY_ALERT_MS,
  initialNotifications,
  notificationsReducer,
  type Notice,
  type NotificationAction,
  type NotificationState,
} from "./notifications";

const plain: Notice = { kind: "danger", message: "Action Failed" };
const priority: Notice = { kind: "warning", message: "Heads up", priority: true };
const response: Notice = { kind: "success", message: "Saved", title: "Done" };

const run = (...actions: NotificationAction[]): NotificationState => actions.reduce(notificationsReducer, initialNotifications);

describe("constants", () => {
  it("a priority alert lasts 12000 ms (SPEC 9)", () => {
    expect(PRIORITY_ALERT_MS).toBe(12000);
  });

  it("lists the four notice kinds", () => {
    expect([...NOTICE_KINDS].sort()).toEqual(["danger", "info", "success", "warning"]);
  });

  it("starts with nothing shown", () => {
    expect(initialNotifications).toEqual({ alert: null, response: null, showAlert: false, showResponse: false, seq: 0 });
  });
});

describe("alert", () => {
  it("setAlert shows the notice", () => {
    const state = run({ type: "setAlert", notice: plain });
    expect(state.showAlert).toBe(true);
    expect(state.alert).toEqual({ ...plain, seq: 1 });
    expect(state.showResponse).toBe(false);
    expect(state.response).toBeNull();
  });

  it("resetAlert hides and clears it", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "resetAlert" });
    expect(state.showAlert).toBe(false);
    expect(state.alert).toBeNull();
  });

  it("a reset naming the current notice clears it", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "resetAlert", seq: 1 });
    expect(state.alert).toBeNull();
    expect(state.showAlert).toBe(false);
  });

  it("a reset naming an older notice does not clear a newer one", () => {
    const before = run({ type: "setAlert", notice: plain }, { type: "setAlert", notice: priority });
    expect(before.alert?.seq).toBe(2);
    const after = notificationsReducer(before, { type: "resetAlert", seq: 1 });
    expect(after).toBe(before);
    expect(after.alert).toEqual({ ...priority, seq: 2 });
    expect(after.showAlert).toBe(true);
  });

  it("a reset naming a notice when none is shown changes nothing", () => {
    const state = notificationsReducer(initialNotifications, { type: "resetAlert", seq: 3 });
    expect(state).toBe(initialNotifications);
  });

  it("a newer alert replaces the older one", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "setAlert", notice: { kind: "info", message: "second" } });
    expect(state.alert).toEqual({ kind: "info", message: "second", seq: 2 });
  });

  it("resetting the alert leaves the response alone", () => {
    const state = run({ type: "setResponse", notice: response }, { type: "setAlert", notice: plain }, { type: "resetAlert" });
    expect(state.alert).toBeNull();
    expect(state.showResponse).toBe(true);
    expect(state.response).toEqual({ ...response, seq: 1 });
  });
});

describe("response modal", () => {
  it("setResponse shows it and resetResponse clears it", () => {
    const shown = run({ type: "setResponse", notice: response });
    expect(shown.showResponse).toBe(true);
    expect(shown.response).toEqual({ ...response, seq: 1 });
    expect(shown.showAlert).toBe(false);
    const cleared = notificationsReducer(shown, { type: "resetResponse" });
    expect(cleared.showResponse).toBe(false);
    expect(cleared.response).toBeNull();
  });

  it("a reset naming an older response does not clear a newer one", () => {
    const before = run({ type: "setResponse", notice: response }, { type: "setResponse", notice: { kind: "danger", message: "Failed" } });
    const after = notificationsReducer(before, { type: "resetResponse", seq: 1 });
    expect(after.response).toEqual({ kind: "danger", message: "Failed", seq: 2 });
    expect(after.showResponse).toBe(true);
    expect(notificationsReducer(before, { type: "resetResponse", seq: 2 }).response).toBeNull();
  });

  it("alerts and responses share one sequence", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "setResponse", notice: response });
    expect(state.alert?.seq).toBe(1);
    expect(state.response?.seq).toBe(2);
    expect(state.seq).toBe(2);
    // The alert's seq does not name the response.
    expect(notificationsReducer(state, { type: "resetResponse", seq: 1 }).response).not.toBeNull();
  });

  it("resetting the response leaves the alert alone", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "setResponse", notice: response }, { type: "resetResponse" });
    expect(state.showAlert).toBe(true);
    expect(state.alert).toEqual({ ...plain, seq: 1 });
  });
});

describe("navigated", () => {
  it("clears a plain alert", () => {
    const state = run({ type: "setAlert", notice: plain }, { type: "navigated" });
    expect(state.alert).toBeNull();
    expect(state.showAlert).toBe(false);
  });

  it("clears an alert whose priority is false", () => {
    const state = run({ type: "setAlert", notice: { ...plain, priority: false } }, { type: "navigated" });
    expect(state.alert).toBeNull();
  });

  it("keeps a priority alert", () => {
    const before = run({ type: "setAlert", notice: priority });
    const after = notificationsReducer(before, { type: "navigated" });
    expect(after).toBe(before);
    expect(after.showAlert).toBe(true);
    expect(after.alert).toEqual({ ...priority, seq: 1 });
  });

  it("keeps a plain alert raised while the navigation ran (a send that lost its connection), and clears one raised before", () => {
    const before = run({ type: "setAlert", notice: plain });
    // The navigation began at seq 1; the alert raised during it is seq 2.
    const raisedDuring = notificationsReducer(before, { type: "setAlert", notice: { ...plain, message: "Action Failed" } });
    expect(notificationsReducer(raisedDuring, { type: "navigated", startedAt: 1 }).alert).toMatchObject({ message: "Action Failed", seq: 2 });
    expect(notificationsReducer(before, { type: "navigated", startedAt: 1 }).alert).toBeNull();
  });

  it("does not touch the response modal", () => {
    const state = run({ type: "setResponse", notice: response }, { type: "setAlert", notice: plain }, { type: "navigated" });
    expect(state.showResponse).toBe(true);
    expect(state.response).toEqual({ ...response, seq: 1 });
  });

  it("changes nothing when no alert is shown", () => {
    expect(notificationsReducer(initialNotifications, { type: "navigated" })).toBe(initialNotifications);
  });
});

it("never mutates the state it is given", () => {
  const before = run({ type: "setAlert", notice: plain }, { type: "setResponse", notice: response });
  const snapshot = structuredClone(before);
  for (const action of [
    { type: "setAlert", notice: priority },
    { type: "resetAlert" },
    { type: "setResponse", notice: response },
    { type: "resetResponse" },
    { type: "navigated" },
  ] satisfies NotificationAction[]) {
    notificationsReducer(before, action);
  }
  expect(before).toEqual(snapshot);
  expect(initialNotifications).toEqual({ alert: null, response: null, showAlert: false, showResponse: false, seq: 0 });
});
