// The answer of a Worker whose settings do not parse (configOf throws ConfigError, functions/env.ts). Nothing can be
// served until the deployer corrects a setting, so the person in front of it is told which one, once and plainly, as a
// 503 (the service is unavailable, not broken by what they did): the 500 page's "quote this error id to support" would
// send them to support for what only the deployer can fix. The problems name settings and never carry a
// value (configProblems), since a value may be a secret.
import { logEvent } from "./log";
import { type ConfigError, configProblems } from "../env";

// Every request of an isolate meets the same error (its env does not change): the log says it once, not once a request.
const logged = new WeakSet<object>();

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** One sentence naming every broken setting, for a page, a JSON answer or a log line. */
export function misconfiguredMessage(error: ConfigError): string {
  return `The portal is not configured correctly: ${configProblems(error).join("; ")}. The people who deploy it must correct this setting; nothing done here can.`;
}

/** Logs the broken settings once per env and returns the sentence to answer with (the Partner API's problem uses it). */
export function noteMisconfigured(error: ConfigError, env: object, requestId: string, extra = ""): string {
  if (!logged.has(env)) {
    logged.add(env);
    logEvent("error", "config.invalid", { requestId, problems: configProblems(error) });
  }
  return extra ? `${misconfiguredMessage(error)} ${extra}` : misconfiguredMessage(error);
}

/** The 503 a request gets while the configuration is broken: a page for a browser, JSON for anything else. */
export function misconfiguredAnswer(error: ConfigError, request: Request, env: object, requestId: string, extra = ""): Response {
  const message = noteMisconfigured(error, env, requestId, extra);
  const headers = { "Cache-Control": "no-store", "Retry-After": "300" };
  if ((request.headers.get("Accept") ?? "").includes("text/html")) {
    const items = configProblems(error)
      .map((problem) => `<li>${escapeHtml(problem)}</li>`)
      .join("");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Service Unavailable</title></head><body><main><h1>Service Unavailable</h1><p>The portal is not configured correctly, so it cannot open yet:</p><ul>${items}</ul><p>The people who deploy it must correct this setting; nothing done here can. Please try again later.</p></main></body></html>`;
    return new Response(html, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
  }
  return Response.json({ message }, { status: 503, headers });
}
