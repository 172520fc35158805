// D1's limits that local workerd does not enforce as production does (decision 033): production D1 allows 32
// arguments to an SQL function, local workerd 127, so tests count them in our SQL text.

/** Production D1's limits (https://developers.cloudflare.com/d1/platform/limits/). */
export const D1_LIMITS = { functionArguments: 32, boundParameters: 100, statementBytes: 100_000, compoundSelects: 5, patternBytes: 50 } as const;

/** SQLite's functions (core, date, aggregate, window, math, JSON): a name before "(" that is none of these is a
 * table's column list, VALUES or IN, which D1's argument limit does not concern. */
const SQL_FUNCTIONS = new Set(
  `abs changes char coalesce concat concat_ws format glob hex ifnull iif instr last_insert_rowid length like likelihood likely
  load_extension lower ltrim max min nullif octet_length printf quote random randomblob replace round rtrim sign soundex
  sqlite_compileoption_get sqlite_compileoption_used sqlite_offset sqlite_source_id sqlite_version substr substring
  total_changes trim typeof unhex unicode unlikely upper zeroblob date time datetime julianday unixepoch strftime timediff
  avg count group_concat string_agg sum total row_number rank dense_rank percent_rank cume_dist ntile lag lead
  first_value last_value nth_value acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log
  log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc json jsonb json_array jsonb_array json_array_length
  json_error_position json_extract jsonb_extract json_insert jsonb_insert json_object jsonb_object json_patch jsonb_patch
  json_pretty json_remove jsonb_remove json_replace jsonb_replace json_set jsonb_set json_type json_valid json_quote
  json_group_array jsonb_group_array json_group_object jsonb_group_object json_each json_tree`.split(/\s+/),
);

export interface FunctionCall {
  name: string;
  args: number;
  /** Where it starts in the text, for the message. */
  at: number;
}

/**
 * Every call `name(...)` in the SQL `text` with its number of top-level arguments. Quoted SQL ('...', "...") is
 * skipped, so a comma or a bracket inside a string is not an argument.
 */
export function functionCalls(text: string): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const open: { name: string; args: number; at: number; empty: boolean }[] = [];
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === "(") {
      const name = /([A-Za-z_][\w]*)\s*$/.exec(text.slice(Math.max(0, i - 40), i))?.[1] ?? "";
      open.push({ name, args: 1, at: i, empty: true });
    } else if (c === ")") {
      const call = open.pop();
      if (call && SQL_FUNCTIONS.has(call.name.toLowerCase())) calls.push({ name: call.name, args: call.empty ? 0 : call.args, at: call.at });
    } else if (c === "," && open.length) {
      open.at(-1)!.args += 1;
    } else if (!/\s/.test(c) && open.length) {
      open.at(-1)!.empty = false;
    }
  }
  return calls;
}

/** The SELECTs a statement compounds: 1 + its UNION, UNION ALL, INTERSECT and EXCEPT. */
export function compoundSelects(sql: string): number {
  return 1 + (sql.match(/\b(?:UNION|INTERSECT|EXCEPT)\b/gi)?.length ?? 0);
}

/** What of D1's limits a statement breaks (function arguments, bound parameters, size, compound SELECTs). */
export function limitProblems(sql: string, binds: readonly unknown[]): string[] {
  const problems: string[] = [];
  for (const call of functionCalls(sql)) {
    if (call.args > D1_LIMITS.functionArguments) problems.push(`${call.name}() has ${call.args} arguments`);
  }
  if (binds.length > D1_LIMITS.boundParameters) problems.push(`${binds.length} bound parameters`);
  const bytes = new TextEncoder().encode(sql).length;
  if (bytes > D1_LIMITS.statementBytes) problems.push(`${bytes} bytes of SQL`);
  if (compoundSelects(sql) > D1_LIMITS.compoundSelects) problems.push(`${compoundSelects(sql)} compound SELECTs`);
  if (/\b(?:LIKE|GLOB)\b/i.test(sql)) problems.push("a LIKE or GLOB (D1 refuses patterns over 50 bytes: use functions/lists/search.ts)");
  return problems;
}

/**
 * The texts of the string and template literals of a TypeScript source: where its SQL is. A template's `${...}`
 * parts stay in (a nested template splits it in two, which only shortens what is counted together).
 */
export function stringLiterals(source: string): string[] {
  return [...source.matchAll(/"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((match) => match[0].slice(1, -1));
}
