// Typed text matched against columns, for every search box and filter (decision 033).
//
// D1 refuses a LIKE or GLOB pattern over 50 bytes ("LIKE or GLOB pattern too complex"): 49 ASCII
// characters, or 25 of Ɔ Ɛ Ŋ, between the two %s. A pasted name or reference is often longer, so no
// search is a LIKE: it is instr() on both sides folded by lower(), which has no length limit and
// keeps what LIKE did (ASCII letters in either case; Ɔ, Ɛ, Ŋ, accents and emoji as typed, since
// SQLite's lower() and LIKE fold ASCII only). A contains-search reads every row its other
// conditions leave either way (LIKE '%x%' can use no index), so the plans are unchanged.

export interface Match {
  sql: string;
  binds: unknown[];
}

/** `text` anywhere in any of `columns` (SQL expressions of trusted code, never user text). */
export function textContains(columns: readonly string[], text: string): Match {
  return {
    sql: `(${columns.map((column) => `instr(lower(${column}), lower(?)) > 0`).join(" OR ")})`,
    binds: columns.map(() => text),
  };
}

/** `column` begins with `text` (instr gives the first place the text occurs: 1 is the start). */
export function textStartsWith(column: string, text: string): Match {
  return { sql: `instr(lower(${column}), lower(?)) = 1`, binds: [text] };
}
