// A stand-in for the SMS gateway: a node:http server on 127.0.0.1 that the HTTP
// adapter (functions/sms/sms.ts) posts to. It records every request and can fail.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

export interface GatewayRequest {
  method: string;
  authorization: string | null;
  contentType: string | null;
  body: unknown;
}

export interface FakeSmsGateway {
  url: string;
  /** "up": 202; "down": 503; "hang": never answers. */
  mode: "up" | "down" | "hang";
  requests: GatewayRequest[];
  close(): Promise<void>;
}

export async function startFakeSmsGateway(): Promise<FakeSmsGateway> {
  const gateway: FakeSmsGateway = { url: "", mode: "up", requests: [], close: async () => undefined };
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      gateway.requests.push({
        method: request.method ?? "",
        authorization: request.headers.authorization ?? null,
        contentType: request.headers["content-type"] ?? null,
        body,
      });
      if (gateway.mode === "hang") return;
      response.writeHead(gateway.mode === "up" ? 202 : 503, { "Content-Type": "application/json" });
      response.end(JSON.stringify(gateway.mode === "up" ? { accepted: true } : { error: "unavailable" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  gateway.url = `http://127.0.0.1:${port}/v1/messages`;
  gateway.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return gateway;
}
