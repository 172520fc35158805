// A stylesheet that does not parse fails quietly in the browser: an unclosed
// @media block swallows every rule after it (the settings tabs were styled only
// on narrow screens for a while). Parse each one as the browser would have to.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postcss, { type AtRule } from "postcss";
import { describe, expect, it } from "vitest";

const STYLES = join(import.meta.dirname, "../../app/styles");
const sheets = readdirSync(STYLES).filter((name) => name.endsWith(".css"));

describe("stylesheets", () => {
  it.each(sheets)("%s parses, with every block closed", (name) => {
    expect(() => postcss.parse(readFileSync(join(STYLES, name), "utf8"), { from: name })).not.toThrow();
  });

  it.each(sheets)("%s keeps media queries to short overrides, not whole sections", (name) => {
    const root = postcss.parse(readFileSync(join(STYLES, name), "utf8"), { from: name });
    const widest = Math.max(
      0,
      ...root.nodes.filter((node): node is AtRule => node.type === "atrule" && node.name === "media").map((media) => media.nodes?.length ?? 0),
    );
    // The narrow-screen blocks hold a handful of overrides each; dozens of rules in one means a brace went missing.
    expect(widest).toBeLessThan(25);
  });
});
