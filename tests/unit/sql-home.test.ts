// House rule (decision 004): all SQL lives in the data modules, the `*.db.ts` files of each domain folder in functions/.
// Routes, guards, auth, settlement, events and the rate limit call their data functions.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

// A statement being made (prepare), run raw (a database's exec), or written out in SQL's own capitals (which is also how a batch is given SQL).
const SQL_SIGNS: { sign: string; pattern: RegExp }[] = [
  { sign: ".prepare(", pattern: /\.prepare\s*\(/ },
  { sign: "database .exec(", pattern: /\b(?:db|DB|database)\s*\.exec\s*\(/ },
  {
    sign: "SQL text",
    pattern:
      /\b(?:SELECT\s[^`"']{0,200}?\bFROM\s+\w|INSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:TABLE|INDEX|TRIGGER)\s)/,
  },
];

/** Each line of `source` that shows SQL, as "file:line sign". */
function sqlOffences(file: string, source: string): string[] {
  const offences: string[] = [];
  source.split("\n").forEach((line, index) => {
    for (const { sign, pattern } of SQL_SIGNS) if (pattern.test(line)) offences.push(`${file}:${index + 1} ${sign}`);
  });
  return offences;
}

/** A data module: a `*.db.ts` file in one of functions/'s domain folders, the only place SQL may be written. */
function isDataModule(file: string): boolean {
  return /^functions\/[\w-]+\/[\w-]+\.db\.ts$/.test(file);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !isDataModule(relative) ? [relative] : [];
  });
}

describe("sqlOffences", () => {
  it("finds a prepared statement, a raw exec, and SQL handed to a batch", () => {
    expect(sqlOffences("a.ts", 'const row = await db.prepare("SELECT id FROM users WHERE email = ?").bind(email).first();')).toEqual([
      "a.ts:1 .prepare(",
      "a.ts:1 SQL text",
    ]);
    expect(sqlOffences("b.ts", "await env.DB.exec(schema);")).toEqual(["b.ts:1 database .exec("]);
    expect(sqlOffences("c.ts", 'await db.batch([\n  statement,\n  db.run("DELETE FROM batch_guards"),\n]);')).toEqual(["c.ts:3 SQL text"]);
    expect(sqlOffences("d.ts", "const COUNT = `INSERT OR IGNORE INTO otp_counters (scope) VALUES (?)`;")).toEqual(["d.ts:1 SQL text"]);
  });

  it("lets through regular expressions, batches of data-module statements and words in a sentence", () => {
    const source = [
      'const match = /^Bearer (.+)$/.exec(header)?.[1] ?? "";',
      "await deps.db.batch([revokeSessionStatement(deps.db, sid, at), auditStatement(tenant, deps.db, meta, facts)]);",
      'const label = "Select a merchant from the list";',
      'const hint = "Update the account, then delete from the form what is wrong.";',
    ].join("\n");
    expect(sqlOffences("e.ts", source)).toEqual([]);
  });
});

describe("where SQL lives", () => {
  it("has no SQL in app/ or in functions/ outside the data modules", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("functions")];
    expect(files.length).toBeGreaterThan(50);
    const offences = files.flatMap((file) => sqlOffences(file, readFileSync(path.join(root, file), "utf8")));
    expect(offences).toEqual([]);
  });
});
