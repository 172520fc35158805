// The PAN detector of the Partner API (PCI DSS 3.4.1, decision 031): what it refuses and what it lets through,
// every spelling once found getting through, by name, then generated card numbers in random spellings and generated references.
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  cardNumberPaths,
  cardNumberPlaces,
  looksLikeCardNumber,
  MAX_JSON_DEPTH,
  normaliseDigits,
  passesLuhn,
  scanBody,
  withoutCardNumbers,
} from "./card-numbers";
import { IdempotencyKey, Reference } from "../partner-api/schemas";
import { cardNumber, ISSUE_SPELLINGS } from "#tests/support/card-spellings";

describe("passesLuhn", () => {
  it.each(["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4222222222222"])("passes %s", (pan) => {
    expect(passesLuhn(pan)).toBe(true);
  });
  it.each(["4111111111111112", "1234567890123", "5555555555554445"])("fails %s", (digits) => {
    expect(passesLuhn(digits)).toBe(false);
  });
});

describe("looksLikeCardNumber", () => {
  it.each(ISSUE_SPELLINGS)("finds a card number written with %s", (_what, text) => {
    expect(looksLikeCardNumber(text)).toBe(true);
    expect(looksLikeCardNumber(`card ${text} declined`)).toBe(true);
  });

  it.each([
    ["inside words", "paid with card 378282246310005 today"],
    ["printed groups after other digits", "ref 12-4111-1111-1111-1111"],
    ["a card number run into another group", "4111111111111111-2"],
    ["a card number after a date", "2026-11-23 4111 1111 1111 1111"],
    ["a card number glued to a reference's letters", "REF4111.1111.1111.1111"],
    ["a 16-digit serial after a date", "KFF-261121-4111111111111111"],
    ["a six-digit date and a long serial (the BIN and the rest)", "REF-411111-1111111111"],
    ["a reference of date-like groups that is no date", "PSP-20261331-4111119"],
  ])("finds %s", (_what, text) => {
    expect(looksLikeCardNumber(text)).toBe(true);
  });

  it.each([
    ["a Ghana phone number", "233244123456"],
    ["a BIN and last four", "412345 4242"],
    ["a Luhn-failing 16 digits", "4111111111111112"],
    ["12 digits that pass Luhn", "411111111116"],
    ["20 digits", "41111111111111111111"],
    ["a date and time", "2026-11-23T10:15:00Z"],
    ["a date and time in words", "Timed out at 2026-11-23 10:15:00.123"],
    // 261121 + 0000487 passes Luhn: as one number it was refused, though no card is a date and a serial.
    ["a reference made of a six-digit date and a number", "KFF-261121-0000487"],
    ["a reference made of an eight-digit date and a number (the docs' example)", "PSP-20261123-000187"],
    ["a date and a serial in other groupings", "20261121 00004802"],
    ["a reference with a written date", "TXN-2026-11-23-00041873"],
    ["a UUID (the Idempotency-Key the docs suggest)", "550e8400-e29b-41d4-a716-446655440000"],
    ["a UUID of digits", "41111111-1111-1111-1111-111111111111"],
    ["letters among every 12 digits", "AB-4111.1111.1111-C-1111"],
    // 13 digits that pass Luhn, but only Visa (4...) issued 13-digit card numbers.
    ["a time in epoch milliseconds", "idem-1764067200014"],
  ])("lets through %s", (_what, text) => {
    expect(looksLikeCardNumber(text)).toBe(false);
  });
});

describe("normaliseDigits", () => {
  it("reads every decimal digit of every script as its ASCII digit", () => {
    expect(normaliseDigits("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ ０１２３４５６７８９ ०१२३४५६७८९ 𝟎𝟏𝟐 ¹²³")).toBe("0123456789 0123456789 0123456789 0123456789 012 123");
  });
  it("relies on Unicode placing decimal digits in whole tens (so a digit's value is its place in its stretch)", () => {
    const stretches: number[] = [];
    let length = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      if (/\p{Nd}/u.test(String.fromCodePoint(code))) length++;
      else if (length > 0) {
        stretches.push(length);
        length = 0;
      }
    }
    expect(stretches.length).toBeGreaterThan(60);
    expect(stretches.filter((stretch) => stretch % 10 !== 0)).toEqual([]);
  });
});

const SEPARATORS = [
  " ",
  "  ",
  "-",
  ".",
  "/",
  "_",
  ":",
  "\t",
  "\n",
  "\r\n",
  "\u00a0",
  "\u202f",
  "\u2009",
  "\u2013",
  "\u2014",
  "\u2212",
  "\u200b",
  "\u200c",
].concat(["\u200d", "\u2060", "\ufeff", "\u3000", ",", "|", " - ", "*", "+", "·", "\u00ad", "'", "~"]);
/** Zero of ASCII, fullwidth, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, mathematical bold. */
const ZEROS = [0x30, 0xff10, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0x1d7ce];

/** A card number as someone might write it: any script per digit, any separators at any places, among words. */
const spelledCardNumber = fc
  .tuple(
    cardNumber,
    fc.array(fc.option(fc.constantFrom(...SEPARATORS), { freq: 2 }), { minLength: 19, maxLength: 19 }),
    fc.array(fc.constantFrom(...ZEROS), { minLength: 19, maxLength: 19 }),
    fc.constantFrom("", "card ", "Declined: ", "REF-", "note\n", "PAN=", "«", "Karta "),
    fc.constantFrom("", " declined", ".", "-X", "\u00a0GHS", ")", " by Ɔkomfo"),
  )
  .map(([digits, gaps, zeros, before, after]) => {
    let text = before;
    [...digits].forEach((digit, i) => {
      text += String.fromCodePoint(zeros[i]! + Number(digit));
      if (i < digits.length - 1 && gaps[i]) text += gaps[i];
    });
    return { digits, text: text + after };
  });

const letters = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Z]{${min},${max}}$`));
const digitsOf = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const referenceSeparator = fc.constantFrom("-", "_", ".", ":", "/");
const day = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2039-12-31T00:00:00Z"), noInvalidDate: true });

/** The documented shapes (docs/partner-api.md): a prefix with a letter, a date and a serial. */
const datedReference = fc.oneof(
  fc
    .tuple(letters(1, 6), referenceSeparator, day, referenceSeparator, digitsOf(1, 11))
    .map(([prefix, a, date, b, serial]) => `${prefix}${a}${date.toISOString().slice(0, 10).replaceAll("-", "")}${b}${serial}`),
  fc
    .tuple(letters(1, 6), referenceSeparator, day, referenceSeparator, digitsOf(1, 7))
    .map(([prefix, a, date, b, serial]) => `${prefix}${a}${date.toISOString().slice(2, 10).replaceAll("-", "")}${b}${serial}`),
  fc.tuple(letters(1, 6), day, digitsOf(1, 11)).map(([prefix, date, serial]) => `${prefix}-${date.toISOString().slice(0, 10)}-${serial}`),
);

/** Any reference with a letter among every 12 digits: groups of at most 12 digits (split as they like) between letters. */
const letteredReference = fc
  .array(fc.tuple(letters(1, 3), digitsOf(1, 12), fc.array(fc.integer({ min: 1, max: 11 }), { maxLength: 3 }), referenceSeparator), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) =>
    parts
      .map(([word, digits, cuts, separator]) => word + [...digits].map((digit, i) => (cuts.includes(i) && i > 0 ? separator + digit : digit)).join(""))
      .join("-")
      .slice(0, 64),
  );

describe("generated spellings", () => {
  it("finds every generated card number however it is written, among words", () => {
    fc.assert(
      fc.property(spelledCardNumber, ({ text }) => {
        expect(looksLikeCardNumber(text)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads the generated spelling back as the card number's digits", () => {
    fc.assert(
      fc.property(spelledCardNumber, ({ digits, text }) => {
        expect(normaliseDigits(text).replace(/[^0-9]/g, "")).toBe(digits);
      }),
      { numRuns: 500 },
    );
  });

  it("accepts every generated reference of the documented shapes, and the API's schema takes them", () => {
    fc.assert(
      fc.property(fc.oneof(datedReference, letteredReference), (reference) => {
        expect(v.is(Reference, reference)).toBe(true);
        expect(looksLikeCardNumber(reference)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts every UUID as an Idempotency-Key", () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(v.is(IdempotencyKey, uuid)).toBe(true);
        expect(looksLikeCardNumber(uuid) || looksLikeCardNumber(uuid.toUpperCase())).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("never reads an RFC 3339 time (any fraction up to nine digits, any zone) as a card number", () => {
    expect(looksLikeCardNumber("2026-08-27T13:56:01.123456789+00:00")).toBe(false);
    const zone = fc.oneof(
      fc.constant("Z"),
      fc
        .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, h, m]) => `${sign}${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`),
    );
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2099, 11, 31) }), fc.stringMatching(/^[0-9]{0,9}$/), zone, (ms, fraction, tz) => {
        const time = `${new Date(ms).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ""}${tz}`;
        expect(looksLikeCardNumber(time), time).toBe(false);
        expect(cardNumberPaths({ occurred_at: time }), time).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("still finds a card number written beside a time", () => {
    expect(looksLikeCardNumber("2026-08-27T13:56:01Z 4111 1111 1111 1111")).toBe(true);
    expect(looksLikeCardNumber("4111111111111111 2026-08-27T13:56:01Z")).toBe(true);
  });
});

describe("cardNumberPaths", () => {
  it("names every place one hides, keys included, and never the value", () => {
    const body = {
      payments: [
        { reference: "A-1", payer: { msisdn: "233244123456" } },
        { reference: "B-2", note: "4111 1111 1111 1111", amount: 4111111111111111 },
        { reference: "4111.1111.1111.1111", failure_reason: "card ٤١١١ ١١١١ ١١١١ ١١١١ declined" },
      ],
      "5555555555554444": { nested: "5555/5555/5555/4444" },
    };
    const paths = cardNumberPaths(body);
    expect(paths.sort()).toEqual(
      [
        "payments[1].note",
        "payments[1].amount",
        "payments[2].reference",
        "payments[2].failure_reason",
        "(a key that looks like a card number)",
        "(a key that looks like a card number).nested",
      ].sort(),
    );
    expect(JSON.stringify(paths)).not.toMatch(/4111|5555/);
  });
  it("finds nothing in a clean payment", () => {
    expect(
      cardNumberPaths({ reference: "PSP-1", payer: { card_bin: "411111", card_last4: "1111" }, amount: 12000, occurred_at: "2026-11-23T10:15:00Z" }),
    ).toEqual([]);
  });
});

describe("scanBody", () => {
  const nested = (depth: number, inner: unknown) => {
    let value = inner;
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };
  it.each([2_000, 100_000])("walks a body nested %i levels deep without recursion, and says it is too deep", (depth) => {
    const body = nested(depth, "4111 1111 1111 1111");
    expect(scanBody(body, MAX_JSON_DEPTH)).toEqual({ cards: [], tooDeep: true });
    const all = scanBody(body);
    expect(all.tooDeep).toBe(false);
    expect(all.cards).toHaveLength(1);
  });
  it("takes a body as deep as allowed", () => {
    expect(scanBody(nested(MAX_JSON_DEPTH, "x"), MAX_JSON_DEPTH)).toEqual({ cards: [], tooDeep: false });
    expect(scanBody(nested(MAX_JSON_DEPTH + 1, "x"), MAX_JSON_DEPTH).tooDeep).toBe(true);
  });
});

describe("cardNumberPlaces", () => {
  const request = (path: string, headers: Record<string, string> = {}) => new Request(`https://portal.example.com${path}`, { headers });
  it("names the path, the query parameter and the header, never the number", () => {
    expect(cardNumberPlaces(request("/api/v1/payments/4111111111111111/reversal"))).toEqual(["URL path"]);
    expect(cardNumberPlaces(request(`/api/v1/payments/${encodeURIComponent("4111\u00a01111\u00a01111\u00a01111")}`))).toEqual(["URL path"]);
    expect(cardNumberPlaces(request(`/api/v1/payments/${encodeURIComponent("٤١١١-١١١١-١١١١-١١١١")}`))).toEqual(["URL path"]);
    expect(cardNumberPlaces(request("/api/v1/payments/4111%252E1111%252E1111%252E1111"))).toEqual(["URL path"]);
    expect(cardNumberPlaces(request("/api/v1/payments?q=card+4111.1111.1111.1111"))).toEqual(["query parameter q"]);
    expect(cardNumberPlaces(request("/api/v1/payments?4111111111111111=1"))).toEqual(["query parameter 1 (its name)"]);
    expect(cardNumberPlaces(request("/api/v1/payments", { "Idempotency-Key": "4111:1111:1111:1111", "X-Note": "4111\t1111\t1111\t1111" }))).toEqual([
      "header idempotency-key",
      "header x-note",
    ]);
  });
  it("reads neither the API key nor the addresses Cloudflare adds, and lets ordinary requests through", () => {
    const headers = {
      Authorization: "Bearer pp_test_4111111111111111AAAAAAAAAAAAAAAA",
      "CF-Connecting-IP": "2001:4860:4860:8888:2001:4860:4860:8844",
      "X-Forwarded-For": "2001:4860:4860:8888:2001:4860:4860:8844",
      "Idempotency-Key": "550e8400-e29b-41d4-a716-446655440000",
      "User-Agent": "PaySwitch/2.14.3 (build 20261123.1042; okhttp/4.12.0)",
    };
    expect(cardNumberPlaces(request("/api/v1/payments/PSP-20261123-000187?expand=refunds", headers))).toEqual([]);
  });
  it("does not read a multipart body's boundary (random framing, never kept), but reads the rest of Content-Type", () => {
    // 4111111111111111 passes the Luhn check: as a boundary it is framing; anywhere else in the header, a card number.
    expect(cardNumberPlaces(request("/api/v1/disputes/x/evidence", { "Content-Type": "multipart/form-data; boundary=4111111111111111abcdef" }))).toEqual([]);
    expect(cardNumberPlaces(request("/api/v1/disputes/x/evidence", { "Content-Type": 'multipart/form-data; boundary="4111111111111111"' }))).toEqual([]);
    expect(cardNumberPlaces(request("/api/v1/disputes/x/evidence", { "Content-Type": "multipart/form-data; note=4111111111111111; boundary=abc" }))).toEqual([
      "header content-type",
    ]);
  });
});

describe("withoutCardNumbers", () => {
  it("masks the digits of a path that holds one and leaves others as they are", () => {
    expect(withoutCardNumbers("/api/v1/payments/4111-1111-1111-1111/reversal")).toBe("/api/v#/payments/####-####-####-####/reversal");
    expect(withoutCardNumbers("/api/v1/payments/%D9%A4%D9%A1%D9%A1%D9%A1111111111111")).not.toMatch(/\p{Nd}{4}/u);
    expect(withoutCardNumbers("/api/v1/payments/KFF-261121-0000487")).toBe("/api/v1/payments/KFF-261121-0000487");
  });
});
