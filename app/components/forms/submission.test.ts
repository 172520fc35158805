import { describe, expect, it } from "vitest";
import { clientAction, isNetworkFailure, lastAnswerIsInPage, refusedSendShown, refusedSendWaiting } from "./submission";

describe("isNetworkFailure", () => {
  it.each(["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed", "Network request failed", "fetch failed"])(
    "is a TypeError saying %j (no answer came)",
    (message) => {
      expect(isNetworkFailure(new TypeError(message))).toBe(true);
    },
  );

  it("is not a bug in the page, nor a server's answer, nor anything else", () => {
    expect(isNetworkFailure(new TypeError("Cannot read properties of undefined (reading 'reason')"))).toBe(false);
    expect(isNetworkFailure(new Error("Failed to fetch"))).toBe(false);
    expect(isNetworkFailure(new Response(null, { status: 500 }))).toBe(false);
    expect(isNetworkFailure("Failed to fetch")).toBe(false);
    expect(isNetworkFailure(null)).toBe(false);
  });
});

describe("whether the last send's answer is on the page", () => {
  const send = (serverAction: () => Promise<unknown>) =>
    clientAction({
      request: new Request("https://portal.test/settings?tab=team", { method: "POST", body: new URLSearchParams({ intent: "invite" }) }),
      serverAction: serverAction as never,
      params: {},
    });

  it("is, for a refusal, until the next send starts; the refusal waits to be shown once", async () => {
    await send(async () => ({ errors: { email: "Enter an email address like name@example.com." }, values: {} }));
    expect(lastAnswerIsInPage()).toBe(true);
    expect(refusedSendWaiting()).toBe(true);
    refusedSendShown();
    expect(refusedSendWaiting()).toBe(false);
    // Shown to the eye, it is still the answer on the page: the page's data read after it is no send of the person's.
    expect(lastAnswerIsInPage()).toBe(true);

    let answer = (_: unknown) => {};
    const second = send(() => new Promise((resolve) => (answer = resolve)));
    // The next send is on its way: no answer of it is on the page yet.
    expect(lastAnswerIsInPage()).toBe(false);
    answer({ check: { reason: "api-key" } });
    await second;
    // A check to pass is on the page too; it is no refusal with messages.
    expect(lastAnswerIsInPage()).toBe(true);
    expect(refusedSendWaiting()).toBe(false);
  });

  it("is not when the server's answer is thrown: a redirect to the page a success leads to, or an error", async () => {
    await send(async () => ({ errors: { email: "x" } }));
    const failure = new Error("Internal Server Error");
    await expect(send(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(lastAnswerIsInPage()).toBe(false);
  });
});
