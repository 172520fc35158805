// A D1 database reached through `wrangler d1 execute`, for a script run against the deployed databases (--remote), as
// `npm run deploy` reaches them: wrangler signs in and finds the database by its binding, so the script holds no
// account id or token. The data modules' own statements run here unchanged: their bound values are written into the
// SQL as literals, because `d1 execute` takes no parameters. Reads go as one --command (one answer per statement); a
// batch of writes goes as one --file, which D1 imports whole or not at all ("your DB will return to its original
// state"), so a batch stays all or nothing. Locally (--local) wrangler runs either as one D1 batch.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "#server/tenancy/tenant";
import { capture } from "./run";
import { wranglerEnv } from "./wrangler";

export type WranglerTarget = { remote: true } | { remote: false; persistTo?: string };

/** A bound value as an SQL literal: text quoted with its quotes doubled, numbers as written, null; nothing else is bound here. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`wrangler d1 execute cannot take a bound ${typeof value}`);
}

/** The statement with each `?` outside quotes replaced by its value, in order; refuses a count that does not match. */
export function inlineBindings(sql: string, values: readonly unknown[]): string {
  let out = "";
  let next = 0;
  let quote: string | null = null;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
      out += char;
    } else if (char === "'" || char === '"' || char === "`") {
      quote = char;
      out += char;
    } else if (char === "?") {
      if (next >= values.length) throw new Error(`More placeholders than values in: ${sql}`);
      out += sqlLiteral(values[next++]);
    } else {
      out += char;
    }
  }
  if (next !== values.length) throw new Error(`${values.length} values for ${next} placeholders in: ${sql}`);
  return out;
}

interface Answer {
  results?: Record<string, unknown>[];
  success?: boolean;
  meta?: Record<string, unknown>;
}

class WranglerStatement {
  constructor(
    private readonly database: WranglerD1,
    readonly sql: string,
    readonly values: readonly unknown[] = [],
  ) {}

  bind(...values: unknown[]): WranglerStatement {
    return new WranglerStatement(this.database, this.sql, values);
  }

  text(): string {
    return inlineBindings(this.sql, this.values);
  }

  async all<T>(): Promise<D1Result<T>> {
    const [answer] = await this.database.execute([this], "command");
    return { results: (answer?.results ?? []) as T[], success: true, meta: (answer?.meta ?? {}) as D1Meta & Record<string, unknown> };
  }

  async first<T>(column?: string): Promise<T | null> {
    const row = (await this.all<Record<string, unknown>>()).results[0];
    if (!row) return null;
    return (column ? (row[column] ?? null) : row) as T | null;
  }

  async run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }
}

class WranglerD1 {
  constructor(
    private readonly binding: string,
    private readonly target: WranglerTarget,
  ) {}

  prepare(sql: string): WranglerStatement {
    return new WranglerStatement(this, sql);
  }

  async batch<T>(statements: WranglerStatement[]): Promise<D1Result<T>[]> {
    const reads = statements.every((statement) => /^\s*SELECT\b/i.test(statement.sql));
    const answers = await this.execute(statements, reads ? "command" : "file");
    // A --file import answers with a summary, not one result per statement; the callers of a write batch read none.
    return statements.map((_, i) => ({
      results: (reads ? (answers[i]?.results ?? []) : []) as T[],
      success: true,
      meta: {} as D1Meta & Record<string, unknown>,
    }));
  }

  async execute(statements: WranglerStatement[], as: "command" | "file"): Promise<Answer[]> {
    const sql = statements.map((statement) => `${statement.text()};`).join("\n");
    const where = this.target.remote ? ["--remote"] : ["--local", ...(this.target.persistTo ? ["--persist-to", this.target.persistTo] : [])];
    const dir = as === "file" ? mkdtempSync(join(tmpdir(), "pp-d1-")) : null;
    try {
      let input: string[];
      if (dir) {
        writeFileSync(join(dir, "batch.sql"), sql);
        input = ["--file", join(dir, "batch.sql")];
      } else {
        input = ["--command", sql];
      }
      const out = await capture("npx", ["wrangler", "d1", "execute", this.binding, ...where, ...input, "--json", "--yes"], { env: wranglerEnv() });
      return JSON.parse(out) as Answer[];
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The database of `binding` (wrangler.toml) through wrangler: the deployed one, or a local state folder's. */
export function wranglerD1(binding: string, target: WranglerTarget): Db {
  return new WranglerD1(binding, target) as unknown as Db;
}
