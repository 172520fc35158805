// Shared with the browser (scripts/server-code-boundary.ts): the forms and the Worker refuse the same names.
/**
 * The bidirectional controls: embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069) and the invisible
 * direction marks (U+200E, U+200F, U+061C). None belongs in a name: "invoice\u202Egnp.pdf" displays as "invoicefdp.png".
 * Names and file names refuse them; user text is also isolated where shown (<bdi>).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

/** Whether the text holds a bidirectional control character. */
export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}

/** The field message for a name holding one: `label` as the form says it ("name", "file name"). */
export function bidiControlMessage(label: string): string {
  return `The ${label} holds an invisible character that reverses how text is shown (a right-to-left override or mark). Type it again without it.`;
}
