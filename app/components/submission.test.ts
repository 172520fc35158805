import { describe, expect, it } from "vitest";
import { clientAction, isNetworkFailure, lastAnswerWasRefusal, refusedSendShown, refusedSendWaiting } from "./submission";

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

describe("what the last send's answer was", () => {
  const send = (serverAction: () => Promise<unknown>) =>
    clientAction({
      request: new Request("https://portal.test/settings?tab=team", { method: "POST", body: new URLSearchParams({ intent: "invite" }) }),
      serverAction: serverAction as never,
      params: {},
    });

  it("is a refusal from the answer with messages until the next send starts, whose answer decides afresh", async () => {
    await send(async () => ({ errors: { email: "Enter an email address like name@example.com." }, values: {} }));
    expect(lastAnswerWasRefusal()).toBe(true);
    expect(refusedSendWaiting()).toBe(true);
    refusedSendShown();
    // Shown to the eye, it is still the last answer: the page's data read after it is no send of the person's.
    expect(lastAnswerWasRefusal()).toBe(true);

    let answer = (_: unknown) => {};
    const second = send(() => new Promise((resolve) => (answer = resolve)));
    // The next send is on its way: it is nobody's refusal yet.
    expect(lastAnswerWasRefusal()).toBe(false);
    answer({ ok: true });
    await second;
    expect(lastAnswerWasRefusal()).toBe(false);
    expect(refusedSendWaiting()).toBe(false);
  });

  it("is no refusal when the server's answer is thrown (a redirect, an error), nor an empty list of messages", async () => {
    await send(async () => ({ errors: { email: "x" } }));
    const failure = new Error("Internal Server Error");
    await expect(send(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(lastAnswerWasRefusal()).toBe(false);
    await send(async () => ({ errors: {} }));
    expect(lastAnswerWasRefusal()).toBe(false);
  });
});
