// Reading what a request to one of the tests' local stand-ins carries: its body, and (for the providers' stand-ins,
// tests/support/fake-*-providers.ts) its parts, each naming in `problems` what the real provider would refuse.
import type { IncomingMessage } from "node:http";

/** The whole body of a request to one of the tests' local fake services, as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

/** The JSON body, with its Content-Type. */
export function jsonBody(request: IncomingMessage, text: string, problems: string[]): Record<string, unknown> {
  if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push("Content-Type is not application/json");
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    problems.push("the body is not JSON");
    return {};
  }
}

/** The form-encoded body, with its Content-Type. */
export function formBody(request: IncomingMessage, text: string, problems: string[]): URLSearchParams {
  if (!(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) problems.push("Content-Type is not form-encoded");
  return new URLSearchParams(text);
}

/** A field that must be a non-empty string (of the given shape). */
export function expectText(problems: string[], name: string, value: unknown, rule?: RegExp): string {
  if (typeof value !== "string" || value === "" || (rule && !rule.test(value))) problems.push(`${name} is missing or malformed: ${JSON.stringify(value)}`);
  return typeof value === "string" ? value : "";
}
