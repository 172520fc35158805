// A business's webhook receiver, for the webhook tests: a node:http server at
// http://localhost:<port> that answers each path as a test tells it (a status, a
// delay, a body, a redirect), can be down (not listening at all), and records
// every request it got with its headers and its raw body (what the signature covers).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** When it arrived (epoch ms). */
  at: number;
}

export interface Answer {
  status: number;
  /** Wait this long before answering (past the portal's timeout: no answer in time). */
  delayMs?: number;
  body?: string;
  headers?: Record<string, string>;
}

/** How a path answers its n-th request (n from 1), given the request's body. */
export type Behaviour = (n: number, body: string) => Answer;

export interface WebhookReceiver {
  port: number;
  url(path: string): string;
  requests: ReceivedWebhook[];
  to(path: string): ReceivedWebhook[];
  /** How `path` answers from now on (default: 200 "ok"). */
  behave(path: string, behaviour: Behaviour): void;
  /** Stops listening: connections are refused until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { listening?: boolean } = {}): Promise<WebhookReceiver> {
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  let server: Server | null = null;
  let port = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const path = (request.url ?? "/").split("?")[0]!;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(", ") : (value ?? "");
    receiver.requests.push({ path, headers, body, at: Date.now() });
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const answer = (behaviours.get(path) ?? ((): Answer => ({ status: 200, body: "ok" })))(n, body);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, { "Content-Type": "text/plain; charset=utf-8", ...answer.headers }).end(answer.body ?? "");
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const made = createServer((request, response) => void handle(request, response).catch(() => response.destroy()));
      made.once("error", reject);
      made.listen(port, "127.0.0.1", () => {
        port = (made.address() as AddressInfo).port;
        server = made;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = server;
      server = null;
      if (!running) return resolve();
      running.closeAllConnections();
      running.close(() => resolve());
    });
  const receiver: WebhookReceiver = {
    port: 0,
    url: (path) => `http://localhost:${port}${path}`,
    requests: [],
    to: (path) => receiver.requests.filter((request) => request.path === path),
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    stop,
    start: listen,
    close: stop,
  };
  await listen();
  receiver.port = port;
  if (options.listening === false) await stop();
  return receiver;
}
