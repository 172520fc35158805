// Whose event it is: POST /api/events takes the user and business from the
// session, never from the body, so an event cannot speak for someone else.
// A spy Worker takes the EVENTS queue, so the tests see the event as queued.
import { describe, expect, it } from "vitest";
import { EVENTS_QUEUE } from "../support/portal";
import { usePortal } from "../support/use-portal";
import { expectedHash, postEvent, sampleEvent, waitFor } from "../support/fake-events-service";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";

interface QueuedMessage {
  hash: string;
  event: Record<string, unknown>;
}

/** Ama Mensah in Accra Mobile Pay, as a browser might claim her. */
const CLAIMED = {
  userEmail: "ama.mensah@example.com",
  userName: "Ama Mensah",
  userId: "233244123456",
  userGender: "female",
  extrasObject: { businessName: "Accra Mobile Pay", businessId: ACCRA },
};
const NOBODY = { userEmail: null, userName: null, userId: null, userGender: null, extrasObject: { businessName: null, businessId: null } };

describe("POST /api/events: whose event it is", () => {
  const portal = usePortal({ spyOnQueue: EVENTS_QUEUE });

  /** Posts `event` (with `headers`), expects 202, and returns the event as it reached the queue. */
  async function queuedAs(event: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const response = await postEvent(portal(), event, { headers });
    expect(response.status, await response.clone().text()).toBe(202);
    const message = await waitFor("the event on the queue", async () => {
      const bodies = (await portal().queued()) as QueuedMessage[];
      return bodies.find((body) => body.event.clientEventId === event.clientEventId);
    });
    // The hash is of the event as queued, so the consumer's check still holds.
    expect(message.hash).toBe(expectedHash(message.event));
    return message.event;
  }

  it("signed in, the event is the signed-in person's in their business, whoever the body claims", async () => {
    const event = sampleEvent(CLAIMED);
    const queued = await queuedAs(event, await signedInCookie(portal()));
    expect(queued).toEqual({
      ...event,
      userEmail: "kofi.boateng@example.com",
      userName: "Kofi Boateng",
      // The seed's only phone for Kofi: the one the code went to.
      userId: "233244556677",
      userGender: "male",
      extrasObject: { businessName: "Kumasi Fresh Foods", businessId: KUMASI },
    });
  });

  it("signed out (the login pages), the event is accepted as nobody's", async () => {
    const event = sampleEvent(CLAIMED);
    expect(await queuedAs(event)).toEqual({ ...event, ...NOBODY });
  });

  it("signing in, no business chosen yet (/select-business), the event carries the session's email and no business", async () => {
    const event = sampleEvent(CLAIMED);
    const queued = await queuedAs(event, await signedInCookie(portal(), "kofi.boateng@example.com", null));
    expect(queued).toEqual({ ...event, ...NOBODY, userEmail: "kofi.boateng@example.com" });
  });
});
