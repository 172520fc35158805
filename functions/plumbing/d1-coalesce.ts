// One D1 round trip for the reads a request starts together. The root
// loader and the page's loader run side by side, and each loader starts its
// independent reads at once (Promise.all): every read statement (.all, .first, or
// a batch of reads) started before the Worker next yields to its timers goes to D1
// as ONE batch, which also reads them all from one snapshot. Writes are never held
// back or joined: they go as they are called. A joined batch that fails (a bad
// statement) is sent again per caller, so each caller gets its own answer or error.
//
// Applied where the load context is made (functions/worker.ts), to every D1 binding
// of the request's env, so data functions keep calling D1 as they always did.

/**
 * A database as a data function sees it: only prepare and batch, what both a D1Database and a D1DatabaseSession (a
 * business's shard through read replicas) offer.
 */
export type Db = Pick<D1Database, "prepare" | "batch">;

const READ = /^\s*(SELECT|WITH)\b/i;
const WRITES = /\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|VACUUM|ATTACH)\b/i;

/** A statement that only reads: safe to run in a batch with other reads, in any order among them. */
export function isReadOnly(sql: string): boolean {
  return READ.test(sql) && !WRITES.test(sql);
}

interface Job {
  statements: D1PreparedStatement[];
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
}

type Batcher = Pick<D1Database, "batch">;

class Coalescer {
  private jobs: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Batcher) {}

  /** The statements' results, from a batch joined with the other reads started in the same turn. */
  read(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    return new Promise((resolve, reject) => {
      this.jobs.push({ statements, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // After every continuation queued now has run: the other loader's reads join too.
      setTimeout(() => void this.flush(), 0);
    });
  }

  private async flush(): Promise<void> {
    const jobs = this.jobs;
    this.jobs = [];
    this.scheduled = false;
    if (jobs.length === 1) {
      const [job] = jobs as [Job];
      this.db.batch(job.statements).then(job.resolve, job.reject);
      return;
    }
    let results: D1Result[];
    try {
      results = await this.db.batch(jobs.flatMap((job) => job.statements));
    } catch {
      for (const job of jobs) this.db.batch(job.statements).then(job.resolve, job.reject);
      return;
    }
    let at = 0;
    for (const job of jobs) {
      job.resolve(results.slice(at, at + job.statements.length));
      at += job.statements.length;
    }
  }
}

// Each wrapper's D1 statement, and its SQL (for the batch's read-only check).
const inner = new WeakMap<object, D1PreparedStatement>();
const sqls = new WeakMap<object, string>();

function coalescedStatement(statement: D1PreparedStatement, sql: string, coalescer: Coalescer): D1PreparedStatement {
  const reads = isReadOnly(sql);
  const wrapped = new Proxy(statement, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === "bind") return (...args: unknown[]) => coalescedStatement(method.apply(target, args) as D1PreparedStatement, sql, coalescer);
      if (reads && property === "all") return () => coalescer.read([target]).then(([result]) => result);
      if (reads && property === "first") {
        return async (column?: string) => {
          const [result] = await coalescer.read([target]);
          const row = (result?.results[0] ?? null) as Record<string, unknown> | null;
          return column === undefined ? row : row === null ? null : (row[column] ?? null);
        };
      }
      return method.bind(target);
    },
  });
  inner.set(wrapped, statement);
  sqls.set(wrapped, sql);
  return wrapped;
}

function coalescedDatabase<D extends object>(db: D): D {
  const coalescer = new Coalescer(db as unknown as Batcher);
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      switch (property) {
        case "prepare":
          return (sql: string) => coalescedStatement(method.call(target, sql) as D1PreparedStatement, sql, coalescer);
        case "batch":
          return (statements: D1PreparedStatement[]) => {
            const unwrapped = statements.map((s) => inner.get(s) ?? s);
            // Only a batch of reads joins the others; a batch that writes keeps its own transaction.
            const reads = statements.length > 0 && statements.every((s) => isReadOnly(sqls.get(s) ?? ""));
            return reads ? coalescer.read(unwrapped) : (method.call(target, unwrapped) as Promise<D1Result[]>);
          };
        case "withSession":
          return (...args: unknown[]) => coalescedDatabase(method.apply(target, args) as object);
        default:
          return method.bind(target);
      }
    },
  });
}

function isD1(value: unknown): value is D1Database {
  return (
    typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function"
  );
}

/** The request's env with every D1 binding joining the reads started together into one round trip. */
export function coalescedEnv(env: Env): Env {
  const copy: Record<string, unknown> = { ...env };
  for (const [name, value] of Object.entries(copy)) if (isD1(value)) copy[name] = coalescedDatabase(value);
  return copy as unknown as Env;
}
