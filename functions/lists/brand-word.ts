// SPEC section 9: in displayed text one telecom provider's brand word is replaced by another's. The network once called
// Vodafone Cash trades as Telecel Cash, and old data (network labels, names people typed) still says Vodafone. The two
// words are written here once: the screens show the old word as the current one (replaceBrandWords, app/lib/format.ts),
// and every search folds the old word into the current one on both sides (functions/lists/search.ts), so a name is
// found by the word stored and by the word shown. Pure, so the browser may import it (decision 014).

export const BRAND_WORD = { old: "Vodafone", current: "Telecel" } as const;
