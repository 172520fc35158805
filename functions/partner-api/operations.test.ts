// The operation table (./operations.ts) and what is built from it: the scope each operation needs (and which only a
// business's own key may run), and the router's routes, one for each row, taking its path with any parameter values.
// The OpenAPI document built from the same rows is checked in ./openapi.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allows, PLATFORM_SCOPES } from "../operators/platform-scopes";
import { BUSINESS_KEY_OPERATIONS, isBusinessKeyOperation, OPERATION_SCOPES, OPERATIONS, scopeOf, type ScopedOperation } from "./operations";
import { ROUTES } from "./router";

describe("the scopes built from the table", () => {
  it("map each Partner API operation to the scope it needs", () => {
    expect(OPERATION_SCOPES).toEqual({
      payments: "payments",
      payment: "payments",
      listPayments: "payments",
      merchants: "payments",
      pointsOfSale: "payments",
      terminals: "payments",
      settlements: "payments",
      refunds: "payments",
      refund: "payments",
      rejections: "payments",
      reversal: "reversals",
      waitingReversals: "reversals",
      heartbeat: "heartbeats",
      disputes: "disputes",
      disputeClose: "disputes",
      listDisputes: "disputes",
      dispute: "disputes",
      disputeEvidence: "disputes",
    });
    // Every scope opens something.
    expect(new Set(Object.values(OPERATION_SCOPES))).toEqual(new Set(PLATFORM_SCOPES));
  });

  it("allow an operation only when the key holds its scope", () => {
    const operations = Object.keys(OPERATION_SCOPES) as ScopedOperation[];
    for (const operation of operations) {
      expect(allows([], scopeOf(operation))).toBe(false);
      expect(allows(PLATFORM_SCOPES, scopeOf(operation))).toBe(true);
      expect(allows([scopeOf(operation)], scopeOf(operation))).toBe(true);
      expect(
        allows(
          PLATFORM_SCOPES.filter((scope) => scope !== scopeOf(operation)),
          scopeOf(operation),
        ),
      ).toBe(false);
    }
    expect(allows(["payments"], scopeOf("reversal"))).toBe(false);
    expect(allows(["payments"], scopeOf("payment"))).toBe(true);
  });

  it("leave the events feed, the webhook endpoints and asking for a refund to a business's own key", () => {
    expect(BUSINESS_KEY_OPERATIONS).toEqual(["askRefund", "events", "event", "resendFailed"]);
    for (const { name } of OPERATIONS) expect(isBusinessKeyOperation(name), name).toBe(!(name in OPERATION_SCOPES));
  });
});

describe("the routes built from the table", () => {
  const segment = fc.stringMatching(/^[^/]+$/).filter((value) => {
    try {
      decodeURIComponent(value);
      return true;
    } catch {
      return false;
    }
  });

  it("route each operation's path, whatever one segment its parameters hold, to that operation alone, with the values decoded", () => {
    const names = OPERATIONS.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(OPERATIONS.map(({ operationId }) => operationId)).size).toBe(names.length);
    fc.assert(
      fc.property(fc.constantFrom(...OPERATIONS), fc.array(segment, { minLength: 3, maxLength: 3 }), fc.boolean(), (operation, values, slash) => {
        let i = 0;
        const path = operation.path.replace(/\{\w+\}/g, () => values[i++]!) + (slash ? "/" : "");
        const taking = ROUTES.filter((route) => route.pattern.test(path));
        // Another row may share the path with another method (GET and POST /api/v1/payments), never with the same one.
        const routed = taking.filter((route) => route.method === operation.method);
        expect(routed.map((route) => route.operation?.name)).toEqual([operation.name]);
        const match = routed[0]!.pattern.exec(path)!;
        // A segment is sent percent-encoded or not ("%00", "%E2%9C%93" are escapes): the handler gets it decoded.
        expect(routed[0]!.params.map((_, n) => decodeURIComponent(match[n + 1]!))).toEqual(
          values.slice(0, routed[0]!.params.length).map((value) => decodeURIComponent(value)),
        );
      }),
    );
  });

  it("keep the public OpenAPI document apart: the one route with no operation, no key asked", () => {
    expect(ROUTES.filter((route) => route.operation === null).map((route) => route.pattern.source)).toEqual(["^\\/api\\/v1\\/openapi\\.json$"]);
    expect(ROUTES.length).toBe(OPERATIONS.length + 1);
  });
});
