// Decision 034: every name a person types refuses the bidirectional controls (U+202E and the others) with a
// message on its field, by the one rule (hasBidiControl); names in any script and emoji still pass.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PasskeyName } from "#server/passkeys/passkeys";
import { bidiControlMessage } from "#app/lib/forms/validation";
import { CreateForm } from "#app/routes/settings/developers/developers.server";
import { EndpointSchema } from "#app/routes/settings/developers/developers-endpoints.server";
import { InviteSchema } from "#app/routes/settings/team.server";

const OVERRIDE = "\u202E";

const FIELDS: [string, v.GenericSchema, string][] = [
  ["a team invitation's name", InviteSchema.entries.name, "name"],
  ["an API key's name", CreateForm.entries.name, "name"],
  ["a webhook endpoint's description", EndpointSchema.entries.description, "description"],
  ["a passkey's name", PasskeyName, "name"],
];

describe("name fields refuse the direction controls", () => {
  it.each(FIELDS)("%s refuses U+202E with the field's message", (_, schema, label) => {
    const parsed = v.safeParse(schema, `Ɔkyeame ${OVERRIDE}fdp.exe`);
    expect(parsed.success).toBe(false);
    expect(parsed.issues?.map((issue) => issue.message)).toEqual([bidiControlMessage(label)]);
  });

  it.each(FIELDS)("%s refuses an isolate and a right-to-left mark too", (_, schema) => {
    expect(v.safeParse(schema, "Ama \u2066Mensah\u2069").success).toBe(false);
    expect(v.safeParse(schema, "Ama\u200F Mensah").success).toBe(false);
  });

  it.each(FIELDS)("%s takes Ghanaian letters, Arabic and emoji", (_, schema) => {
    for (const name of ["Ɔkyeame Ɛnterprise Ŋ", "Kofi 🍍", "مطعم أكرا"]) expect(v.safeParse(schema, name).success).toBe(true);
  });
});
