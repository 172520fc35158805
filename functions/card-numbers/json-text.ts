// What JSON.parse does not say about a body's text (decision 031, amendment 2026-12-01): a key repeated in an
// object (JSON.parse keeps the last value and drops the others unseen, so a card number or a second amount could hide
// there) and text that is not well-formed Unicode (a lone surrogate written "\ud800", stored as a replacement
// character past the field's length limit). Read once over the raw text, without recursion: the text has already
// parsed, so only strings and the brackets, commas and colons between them need telling apart.
import { jsonPathOf, keyStep } from "./card-numbers";

/** A path's step for a key that is itself not well-formed (the refusal never echoes a lone surrogate). */
const MALFORMED_KEY = "(a key that is not well-formed Unicode)";
/** At most this many of each kind are named: a body of 30,000 repeated keys gets a short answer. */
const MAX_NAMED = 20;

type Frame = { object: true; keys: Set<string>; key: string | null; step: string; expectKey: boolean } | { object: false; index: number };

export interface JsonTextIssues {
  /** Paths of keys that appear again in the same object (`payments[0].amount`). */
  repeatedKeys: string[];
  /** Paths of strings (values, or keys) that are not well-formed Unicode. */
  notWellFormed: string[];
}

/** A surrogate code unit not in a pair: with the u flag, a pair is one code point and never matches. */
const LONE_SURROGATE = /\p{Cs}/u;

function pathOf(frames: readonly Frame[]): string {
  return jsonPathOf(frames.flatMap((frame): (string | number)[] => (frame.object ? (frame.key === null ? [] : [frame.step]) : [frame.index])));
}

/** The repeated keys and ill-formed strings of JSON text that JSON.parse took. */
export function jsonTextIssues(text: string): JsonTextIssues {
  const issues: JsonTextIssues = { repeatedKeys: [], notWellFormed: [] };
  const note = (list: string[], path: string) => {
    if (list.length < MAX_NAMED && !list.includes(path)) list.push(path);
  };
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{") frames.push({ object: true, keys: new Set(), key: null, step: "", expectKey: true });
    else if (char === "[") frames.push({ object: false, index: 0 });
    else if (char === "}" || char === "]") frames.pop();
    else if (char === ",") {
      const top = frames.at(-1);
      if (top?.object) top.expectKey = true;
      else if (top) top.index += 1;
    } else if (char === '"') {
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end++) {
        const c = text.charCodeAt(end);
        if (c === 92) {
          end += 1;
          escaped = true;
        } else if (c === 34) break;
      }
      // Raw UTF-8 text decodes well-formed: only a \u escape can make a lone surrogate.
      const value = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
      const wellFormed = !escaped || !LONE_SURROGATE.test(value);
      const top = frames.at(-1);
      if (top?.object && top.expectKey) {
        top.key = value;
        top.step = wellFormed ? keyStep(value) : MALFORMED_KEY;
        top.expectKey = false;
        if (top.keys.has(value)) note(issues.repeatedKeys, pathOf(frames));
        top.keys.add(value);
        if (!wellFormed) note(issues.notWellFormed, pathOf(frames));
      } else if (!wellFormed) note(issues.notWellFormed, pathOf(frames));
      i = end;
    }
  }
  return issues;
}
