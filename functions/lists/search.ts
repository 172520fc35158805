// Typed text matched against columns, for every search box and filter (decision 033).
//
// D1 refuses a LIKE or GLOB pattern over 50 bytes ("LIKE or GLOB pattern too complex"): 49 ASCII
// characters, or 25 of Ɔ Ɛ Ŋ, between the two %s. A pasted name or reference is often longer, so no
// search is a LIKE: it is instr() on both sides folded the same way, which has no length limit. SQLite's
// lower() folds ASCII only (D1 has no ICU), so the capitals of the letters Ghana's languages add to the
// Latin alphabet are folded by replace(): "ɔkɔdeɛ" finds "Ɔkɔdeɛ". Accents and emoji match as typed. SPEC 9's old brand
// word is folded into the one the screens show (functions/lists/brand-word.ts), so "Telecel Corner" finds the merchant
// stored as "Vodafone Corner" and shown as "Telecel Corner", and the old word still finds it.
// A contains-search reads every row its other conditions leave either way (LIKE '%x%' can use no index).

import { BRAND_WORD } from "./brand-word";

export interface Match {
  sql: string;
  binds: unknown[];
}

/** Akan, Ga, Dagbani and Ewe letters beyond the Latin alphabet, capital and small. */
const GHANAIAN_CASES = [
  ["Ɔ", "ɔ"],
  ["Ɛ", "ɛ"],
  ["Ŋ", "ŋ"],
  ["Ɖ", "ɖ"],
  ["Ƒ", "ƒ"],
  ["Ɣ", "ɣ"],
  ["Ʋ", "ʋ"],
] as const;

/**
 * `expression` in small letters, ASCII by lower(), Ghana's own letters by replace() (one call each: D1's 32 arguments),
 * and with the old brand word as the current one (after lower(), so in any case).
 */
function folded(expression: string): string {
  const small = GHANAIAN_CASES.reduce((sql, [capital, small]) => `replace(${sql}, '${capital}', '${small}')`, `lower(${expression})`);
  return `replace(${small}, '${BRAND_WORD.old.toLowerCase()}', '${BRAND_WORD.current.toLowerCase()}')`;
}

/** `text` anywhere in any of `columns` (SQL expressions of trusted code, never user text). */
export function textContains(columns: readonly string[], text: string): Match {
  return {
    sql: `(${columns.map((column) => `instr(${folded(column)}, ${folded("?")}) > 0`).join(" OR ")})`,
    binds: columns.map(() => text),
  };
}

/** `column` begins with `text` (instr gives the first place the text occurs: 1 is the start). */
export function textStartsWith(column: string, text: string): Match {
  return { sql: `instr(${folded(column)}, ${folded("?")}) = 1`, binds: [text] };
}
