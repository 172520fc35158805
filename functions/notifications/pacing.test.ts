// Quiet hours and the hourly cap, with generated people, channels, hours and histories: nobody gets more than the cap
// in any run's hour, no SMS goes out in the quiet hours but a security one, and nothing is dropped (each send is sent,
// put off to 07:00, or folded into the digest).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOUR_MS, HOURLY_CAP, inQuietHours, paceKey, paceSends, quietHoursEnd, type SendToPace } from "./pacing";

const people = ["usr_ama", "usr_kofi", "usr_ɛsi"];
const send = fc.record({
  userId: fc.constantFrom(...people),
  channel: fc.constantFrom("email" as const, "sms" as const),
  urgent: fc.boolean(),
});
const sends = fc.array(send, { maxLength: 40 }).map((list) => list.map((s, i): SendToPace => ({ ...s, id: `ndl_${i}` })));
const history = fc.dictionary(fc.constantFrom(...people.flatMap((p) => [paceKey(p, "email"), paceKey(p, "sms")])), fc.integer({ min: 0, max: 12 }));
// Any instant of 2026, to the minute.
const instant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31, 23, 59) }).map((ms) => ms - (ms % 60_000));

describe("paceSends", () => {
  it("sends nobody more than the cap on a channel in the hour, unless the notice is a security one", () => {
    fc.assert(
      fc.property(sends, history, instant, (due, sent, now) => {
        const paces = paceSends(due, new Map(Object.entries(sent)), now);
        for (const person of people) {
          for (const channel of ["email", "sms"] as const) {
            const before = sent[paceKey(person, channel)] ?? 0;
            const plain = due.filter((s, i) => s.userId === person && s.channel === channel && !s.urgent && paces[i]!.step === "send").length;
            const urgent = due.filter((s, i) => s.userId === person && s.channel === channel && s.urgent && paces[i]!.step === "send").length;
            // Plain sends stop at the cap; urgent ones may pass it, but a plain one never goes after the cap was reached.
            if (plain > 0) expect(before + plain + urgent).toBeLessThanOrEqual(Math.max(HOURLY_CAP[channel], before) + urgent);
            expect(Math.min(before, HOURLY_CAP[channel]) + plain).toBeLessThanOrEqual(HOURLY_CAP[channel]);
          }
        }
      }),
    );
  });

  it("sends no SMS in the quiet hours but a security one, and puts the rest off to 07:00 the same night's morning", () => {
    fc.assert(
      fc.property(sends, history, instant, (due, sent, now) => {
        const paces = paceSends(due, new Map(Object.entries(sent)), now);
        paces.forEach((pace, i) => {
          const asked = due[i]!;
          if (inQuietHours(now) && asked.channel === "sms" && !asked.urgent) {
            expect(pace).toEqual({ id: asked.id, step: "later", at: quietHoursEnd(now) });
            const morning = new Date(quietHoursEnd(now));
            expect([morning.getUTCHours(), morning.getUTCMinutes()]).toEqual([7, 0]);
            expect(quietHoursEnd(now) - now).toBeGreaterThan(0);
            expect(quietHoursEnd(now) - now).toBeLessThanOrEqual(10 * HOUR_MS);
          }
          if (pace.step === "later") expect(asked.channel).toBe("sms");
          if (asked.urgent) expect(pace.step).toBe("send");
        });
      }),
    );
  });

  it("answers every send once, in order, and folds only what the cap holds back", () => {
    fc.assert(
      fc.property(sends, history, instant, (due, sent, now) => {
        const paces = paceSends(due, new Map(Object.entries(sent)), now);
        expect(paces.map((p) => p.id)).toEqual(due.map((s) => s.id));
        const counts = new Map(Object.entries(sent));
        paces.forEach((pace, i) => {
          const asked = due[i]!;
          const key = paceKey(asked.userId, asked.channel);
          if (pace.step === "fold") expect(counts.get(key) ?? 0).toBeGreaterThanOrEqual(HOURLY_CAP[asked.channel]);
          if (pace.step === "send") counts.set(key, (counts.get(key) ?? 0) + 1);
        });
      }),
    );
  });

  it("knows Accra's quiet hours: 21:00 to 07:00", () => {
    expect(inQuietHours(Date.UTC(2026, 11, 4, 20, 59))).toBe(false);
    expect(inQuietHours(Date.UTC(2026, 11, 4, 21, 0))).toBe(true);
    expect(inQuietHours(Date.UTC(2026, 11, 5, 6, 59))).toBe(true);
    expect(inQuietHours(Date.UTC(2026, 11, 5, 7, 0))).toBe(false);
    expect(quietHoursEnd(Date.UTC(2026, 11, 4, 23, 30))).toBe(Date.UTC(2026, 11, 5, 7, 0));
    expect(quietHoursEnd(Date.UTC(2026, 11, 5, 3, 0))).toBe(Date.UTC(2026, 11, 5, 7, 0));
  });
});
