// The benchmarks that start their own portal must measure that portal. If another
// process already listens on the port, wrangler cannot take it, and the timings
// come from whatever answers there (a process listening there made the page benchmark print 1-3 ms for every page).
import { createConnection, createServer } from "node:net";

/** Why the port cannot be ours, or null when it is free on 127.0.0.1 (where `npm start` listens). */
export async function portTaken(port: number, host = "127.0.0.1"): Promise<string | null> {
  // Something that answers a connection is taken, whatever address it bound.
  const answers = await new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
  if (answers) return `something already answers on ${host}:${port}`;
  // A listener that does not accept yet (or on 0.0.0.0 / ::) still makes the bind fail.
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(`${host}:${port} cannot be taken (${error.code ?? error.message})`));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Stops the script (exit 1) with a clear message when the port is taken; call before seeding or starting anything. */
export async function refuseTakenPort(port: number, script: string): Promise<void> {
  const taken = await portTaken(port);
  if (!taken) return;
  console.error(
    `${script}: port ${port} is in use (${taken}). The benchmark starts its own portal there and would measure the other process instead.\n` +
      `Stop what listens on ${port} (for example \`npm start\`), or pass another port: --port <free port>.`,
  );
  process.exit(1);
}
