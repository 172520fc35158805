// The signed-in portal the browser benchmarks (bench:weak, bench:lighthouse) measure: the `demo` seed in
// .wrangler/bench-demo (made once), the last build served by `wrangler dev` as `npm start` serves it, and a session of
// Ama Mensah, Super Administrator of Kumasi Fresh Foods, made as the sign-in steps make one (tests/support/sign-in.ts).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { mintSession } from "../../tests/support/sign-in";
import { KUMASI } from "../../tests/support/tenants";
import { migrateLocal, seedLocal, withLocalD1 } from "../seed/local";
import { refuseTakenPort } from "./port";
import { servePortal } from "./serve";

export interface BenchPortal {
  base: string;
  cookies: { name: string; value: string; url: string; httpOnly: true; sameSite: "Lax" }[];
  cookieHeader: string;
  stop: () => void;
}

export async function startBenchPortal(port: number, script: string): Promise<BenchPortal> {
  const root = resolve(import.meta.dirname, "../..");
  const state = join(root, ".wrangler/bench-demo");
  const base = `http://127.0.0.1:${port}`;
  await refuseTakenPort(port, script);
  if (!existsSync(join(root, "build/client"))) throw new Error("No build: run `npm run build` first.");
  if (!existsSync(join(state, "v3/d1"))) {
    console.log(`Seeding demo into ${state} (once)…`);
    await migrateLocal(state);
    await seedLocal("demo", state);
  } else {
    await migrateLocal(state);
  }
  const session = await withLocalD1(state, (db) => mintSession(db, base, "ama.mensah@example.com", KUMASI));
  const { ready, stop } = servePortal(port, state);
  await ready();
  return { base, cookies: session.browserCookies, cookieHeader: session.cookieHeader, stop };
}
