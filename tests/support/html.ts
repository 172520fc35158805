/** Small readers for server-rendered HTML in integration tests. */
export function titleOf(html: string): string | undefined {
  return html.match(/<title>([^<]*)<\/title>/)?.[1];
}

export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

export function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

/**
 * The loader data a server-rendered document hands to the browser (Remix single
 * fetch: a turbo-stream payload in `streamController.enqueue(...)`), by route id.
 * Plain values only (objects, arrays, strings, numbers, booleans, null), which is
 * all the portal's loaders return.
 */
function remixPayloadOf(html: string): { loaderData?: Record<string, unknown>; actionData?: Record<string, unknown> | null } {
  const payload = /streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/.exec(html)?.[1];
  if (!payload) throw new Error("no Remix payload in this document");
  const values = JSON.parse(JSON.parse(payload) as string) as unknown[];
  const hydrate = (index: number): unknown => {
    if (index === -5) return null;
    if (index === -7) return undefined;
    if (index < 0) throw new Error(`unsupported turbo-stream constant ${index}`);
    const value = values[index];
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      if (typeof value[0] === "string") throw new Error(`unsupported turbo-stream type ${value[0]}`);
      return value.map((item) => hydrate(item as number));
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [values[Number(key.slice(1))] as string, hydrate(item as number)]));
  };
  return hydrate(0) as { loaderData?: Record<string, unknown>; actionData?: Record<string, unknown> | null };
}

export function loaderDataOf(html: string): Record<string, unknown> {
  return remixPayloadOf(html).loaderData ?? {};
}

/** What the action answered, by route id, in the document rendered after it (a refusal, or data such as a revealed secret). */
export function actionDataOf(html: string): Record<string, unknown> {
  return remixPayloadOf(html).actionData ?? {};
}
