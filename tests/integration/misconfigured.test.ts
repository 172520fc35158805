// Decision 042: a Worker started with a missing or malformed setting answers every request with one clear
// message naming the setting (a 503, functions/plumbing/misconfigured.ts), never the generic 500 page, never a value,
// and logs it once however many requests meet it.
import { describe, expect, it } from "vitest";
import { textOf, titleOf } from "../support/html";
import { usePortal } from "../support/use-portal";

const page = { headers: { Accept: "text/html" } };

describe("a malformed setting", () => {
  const logLines: string[] = [];
  const broken = usePortal({ vars: { SMS_GATEWAY_URL: "not a url", SMS_GATEWAY_TOKEN: "token-that-must-never-show" }, logTo: (line) => logLines.push(line) });

  it("is named on the page a person sees, as a 503 and not the 500 page", async () => {
    const response = await broken().fetch("/login", page);
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(titleOf(html)).toBe("Service Unavailable");
    expect(titleOf(html)).not.toBe("Internal Server Error");
    expect(textOf(html)).toContain("SMS_GATEWAY_URL must be a URL");
    expect(html).not.toContain("not a url");
    expect(html).not.toContain("token-that-must-never-show");
    expect(html).not.toMatch(/worker\.js:\d+|at parseAll/);
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("is named in JSON to a caller that is not a browser, the Partner API included", async () => {
    for (const path of ["/api/events", "/api/v1/payments"]) {
      const response = await broken().fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer x" }, body: "{}" });
      expect(response.status, path).toBe(503);
      const { message } = await response.json<{ message: string }>();
      expect(message, path).toContain("SMS_GATEWAY_URL must be a URL");
    }
  });

  it("is logged once, however many requests meet it", async () => {
    await Promise.all([1, 2, 3].map(() => broken().fetch("/", page)));
    const logged = logLines.filter((line) => line.includes('"config.invalid"'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("SMS_GATEWAY_URL");
    expect(logged.join("\n")).not.toContain("not a url");
  });
});

describe("an unknown ENVIRONMENT", () => {
  const broken = usePortal({ vars: { ENVIRONMENT: "staging" } });

  it("names ENVIRONMENT and what it may be, without echoing the value", async () => {
    const response = await broken().fetch("/", page);
    expect(response.status).toBe(503);
    const text = textOf(await response.text());
    expect(text).toContain("ENVIRONMENT");
    expect(text).toContain('"production"');
    expect(text).not.toContain("staging");
  });
});

describe("a setting production requires", () => {
  const broken = usePortal({ vars: { ENVIRONMENT: "production" } });

  it("is named when missing", async () => {
    const response = await broken().fetch("/anything", page);
    expect(response.status).toBe(503);
    expect(textOf(await response.text())).toContain("SESSION_SECRET is required in production");
  });
});
