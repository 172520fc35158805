// House rule (decision 004): all SQL lives in the data modules, the `*.db.ts` files of each domain folder in functions/.
// Routes, guards, auth, settlement, events and the rate limit call their data functions.
// Tests may hold SQL: a module's test beside it (`functions/plumbing/d1-coalesce.test.ts`) writes statements to drive
// the code under test, as tests/ does. That is allowed only in a test (`*.test.ts`, `*.test.tsx`), which runs in Node
// under vitest and which no module imports (checked below), so its SQL never reaches the Worker.
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

/** A module's test beside it (`x.test.ts` next to `x.ts`): it may hold SQL, as every test may. */
function isTest(file: string): boolean {
  return /\.test\.tsx?$/.test(file);
}

/** Every .ts and .tsx file under `dir`, relative to the root. */
function allFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return allFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

/** The files where SQL may not be written: all but the data modules and the tests. */
function sourceFiles(dir: string): string[] {
  return allFiles(dir).filter((file) => !isDataModule(file) && !isTest(file));
}

/** The module specifiers a source imports or re-exports, `import()` included. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);
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
  it("has no SQL in app/ or in functions/ outside the data modules and the tests, and no module imports a test", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("functions")];
    expect(files.length).toBeGreaterThan(50);
    const offences = files.flatMap((file) => sqlOffences(file, readFileSync(path.join(root, file), "utf8")));
    expect(offences).toEqual([]);

    // Tests beside their modules may hold SQL only because no module imports a test (so none reaches the Worker).
    expect([isTest("functions/ledger/ledger.test.ts"), isTest("app/components/form.test.tsx"), isTest("functions/ledger/ledger.db.ts")]).toEqual([
      true,
      true,
      false,
    ]);
    const source = 'import { a } from "./a";\nexport { b } from "../b.test";\nimport "./side";\nconst c = await import("./c.test.ts");';
    expect(specifiers(source)).toEqual(["./a", "../b.test", "./side", "./c.test.ts"]);
    const everything = [...allFiles("app"), ...allFiles("functions")];
    expect(everything.filter(isTest).length).toBeGreaterThan(0);
    const importsOfTests = everything
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        specifiers(readFileSync(path.join(root, file), "utf8"))
          .filter((specifier) => /\.test(?:\.tsx?)?$/.test(specifier))
          .map((specifier) => `${file} imports ${specifier}`),
      );
    expect(importsOfTests).toEqual([]);
  });
});
