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
