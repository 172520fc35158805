// Where a request's time goes, sent as a standard Server-Timing header
// when the SERVER_TIMING var allows it (never in production: it tells how the
// Worker is built). npm run bench:pages reads it.
//
// D1 is measured once, where the load context is made: every D1 binding of the
// request's env is wrapped (timedEnv), so each data function, the guards and any
// binding added later are counted without a line of their own. The phases:
// session (the cookie, its sessions row and the membership), loader (Remix from
// the request to the start of rendering: the root and page loaders, which run side
// by side), render (React to the whole document), total (the whole fetch). d1 is
// the wall time during which at least one D1 call was in flight, so parallel calls
// are not counted twice; its description is the number of round trips (a batch is one).
//
// Note that on Cloudflare the clock moves only across I/O: a phase with no I/O
// (rendering) reads 0 there. workerd in local development has a real clock.

export type Phase = "session" | "loader" | "render";

const PHASES: readonly Phase[] = ["session", "loader", "render"];

export class RequestTiming {
  private readonly started = performance.now();
  private readonly spent = new Map<Phase, number>();
  private readonly open = new Map<Phase, { depth: number; since: number }>();
  private d1InFlight = 0;
  private d1Since = 0;
  private d1Ms = 0;
  /** D1 round trips: each first/all/run/raw/exec/batch call. */
  d1Calls = 0;

  /** Marks a phase as running until the returned function is called; nested entries of one phase count once. */
  enter(phase: Phase): () => void {
    const now = performance.now();
    const current = this.open.get(phase);
    if (current) current.depth += 1;
    else this.open.set(phase, { depth: 1, since: now });
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const state = this.open.get(phase);
      if (!state) return;
      state.depth -= 1;
      if (state.depth > 0) return;
      this.open.delete(phase);
      this.spent.set(phase, (this.spent.get(phase) ?? 0) + performance.now() - state.since);
    };
  }

  /** The loader phase is everything before rendering starts; called once when it does (or when a data request is answered). */
  loadersDone(): void {
    if (!this.spent.has("loader")) this.spent.set("loader", performance.now() - this.started);
  }

  d1Started(): void {
    this.d1Calls += 1;
    if (this.d1InFlight === 0) this.d1Since = performance.now();
    this.d1InFlight += 1;
  }

  d1Ended(): void {
    this.d1InFlight -= 1;
    if (this.d1InFlight === 0) this.d1Ms += performance.now() - this.d1Since;
  }

  /** The Server-Timing header's value, durations in milliseconds. */
  header(): string {
    const ms = (value: number) => value.toFixed(1);
    const parts = PHASES.filter((phase) => this.spent.has(phase)).map((phase) => `${phase};dur=${ms(this.spent.get(phase)!)}`);
    parts.push(`d1;dur=${ms(this.d1Ms)};desc="${this.d1Calls} ${this.d1Calls === 1 ? "query" : "queries"}"`);
    parts.push(`total;dur=${ms(performance.now() - this.started)}`);
    return parts.join(", ");
  }
}

// A symbol of the global registry, not a module's WeakMap: the Worker and the Remix server build are bundled
// apart, so each holds its own copy of this module, and the guards (in the Remix build) must find the timing
// the Worker attached.
const TIMING = Symbol.for("partners-portal.timing");

/** Runs `work` as `phase` of the request whose (wrapped) D1 binding `db` is; untimed requests just run it. */
export async function timed<T>(db: object, phase: Phase, work: () => Promise<T>): Promise<T> {
  const timing = timingOf(db);
  if (!timing) return work();
  const leave = timing.enter(phase);
  try {
    return await work();
  } finally {
    leave();
  }
}

async function counted<T>(timing: RequestTiming, call: () => Promise<T>): Promise<T> {
  timing.d1Started();
  try {
    return await call();
  } finally {
    timing.d1Ended();
  }
}

const ROUND_TRIPS = new Set(["first", "all", "run", "raw"]);
const unwrapped = new WeakMap<object, D1PreparedStatement>();

function timedStatement(statement: D1PreparedStatement, timing: RequestTiming): D1PreparedStatement {
  const wrapped = new Proxy(statement, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === "bind") return (...args: unknown[]) => timedStatement(method.apply(target, args) as D1PreparedStatement, timing);
      if (typeof property === "string" && ROUND_TRIPS.has(property)) {
        return (...args: unknown[]) => counted(timing, () => method.apply(target, args) as Promise<unknown>);
      }
      return method.bind(target);
    },
  });
  unwrapped.set(wrapped, statement);
  return wrapped;
}

/** A D1 database, or a D1 Sessions API session: prepare, batch, exec (and withSession) are counted. */
function timedDatabase<D extends object>(db: D, timing: RequestTiming): D {
  const wrapped = new Proxy(db, {
    get(target, property) {
      if (property === TIMING) return timing;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      switch (property) {
        case "prepare":
          return (...args: unknown[]) => timedStatement(method.apply(target, args) as D1PreparedStatement, timing);
        case "batch":
          // D1 takes only its own statements: hand it the ones inside the wrappers.
          return (statements: D1PreparedStatement[]) =>
            counted(
              timing,
              () =>
                method.call(
                  target,
                  statements.map((s) => unwrapped.get(s) ?? s),
                ) as Promise<unknown>,
            );
        case "exec":
          return (...args: unknown[]) => counted(timing, () => method.apply(target, args) as Promise<unknown>);
        case "withSession":
          return (...args: unknown[]) => timedDatabase(method.apply(target, args) as object, timing);
        default:
          return method.bind(target);
      }
    },
  });
  return wrapped;
}

function isD1(value: unknown): value is D1Database {
  return (
    typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function"
  );
}

/** The request's env with every D1 binding counted by `timing` (the same env when there is no timing). */
export function timedEnv(env: Env, timing: RequestTiming | null): Env {
  if (!timing) return env;
  const copy: Record<string, unknown> = { ...env };
  for (const [name, value] of Object.entries(copy)) if (isD1(value)) copy[name] = timedDatabase(value, timing);
  return copy as unknown as Env;
}

/** The request's timing, found through its (wrapped) D1 binding; null when the request is not timed. */
export function timingOf(db: object): RequestTiming | null {
  const timing = (db as { [TIMING]?: unknown })[TIMING];
  return timing instanceof Object && "enter" in timing ? (timing as RequestTiming) : null;
}
