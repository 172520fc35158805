// The committed types are what the OpenAPI document generates now: change the API, then run npm run api:client.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientTypes, CLIENT_TYPES_PATH } from "../../scripts/lib/api-client-types";

describe("the typed Partner API client", () => {
  it("is generated from the current OpenAPI document (npm run api:client)", async () => {
    expect(readFileSync(CLIENT_TYPES_PATH, "utf8"), "run npm run api:client").toBe(await clientTypes());
  }, 30_000);
});
