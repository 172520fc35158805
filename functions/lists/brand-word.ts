// SPEC section 9: in displayed text one telecom provider's brand word is replaced by another's. The network once called
// Vodafone Cash trades as Telecel Cash, and old data (network labels, names people typed) still says Vodafone. The rule
// is written here once: the screens show the old word as the current one (replaceBrandWords, which app/lib/format.ts
// gives the UI with the other display rules), and every search folds the old word into the current one on both sides
// (functions/lists/search.ts), so a name is found by the word stored and by the word shown. Pure, so the browser may
// import it (decision 014); the shell's alerts import it alone, without the rest of format.ts.

export const BRAND_WORD = { old: "Vodafone", current: "Telecel" } as const;

const OLD_WORD = new RegExp(BRAND_WORD.old, "gi");

/** `text` with the old brand word as the current one, in capitals where it was written in capitals. */
export function replaceBrandWords(text: string): string {
  return text.replace(OLD_WORD, (word) => (word === word.toUpperCase() ? BRAND_WORD.current.toUpperCase() : BRAND_WORD.current));
}
