// Reading a list's URL: each parameter is checked on its own, and a value that
// does not fit is dropped (the list shows unfiltered) rather than failing the page.
import * as v from "valibot";
import { readPage, readTrail } from "./list-url";

/**
 * A search box's text, of any length: a pasted name or reference can be long, and a search
 * dropped for its length would show the whole list as if it matched (decision 033).
 */
export const searchParam = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => text || undefined),
  ),
);

export function oneOf<const T extends readonly string[]>(values: T) {
  return v.optional(v.picklist(values));
}

export function listParams<TEntries extends v.ObjectEntries>(url: URL, entries: TEntries) {
  const raw = Object.fromEntries(url.searchParams);
  const output: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(entries)) {
    const parsed = v.safeParse(schema, raw[key] === "" ? undefined : raw[key]);
    output[key] = parsed.success ? parsed.output : undefined;
  }
  return {
    filters: output as v.InferOutput<v.ObjectSchema<TEntries, undefined>>,
    page: readPage(url.searchParams),
    trail: readTrail(url.searchParams),
  };
}
