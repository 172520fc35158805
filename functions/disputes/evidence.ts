// What an evidence file is, told from its first bytes (its magic number), never from its name or the type the browser
// declared: a script renamed receipt.pdf is refused. Pure: the upload action and the tests use it.

export const EVIDENCE_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp"] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The file's type by its content, or null when it is none of the four kinds taken. */
export function sniffEvidenceType(head: Uint8Array): EvidenceType | null {
  if (startsWith(head, ascii("%PDF-"))) return "application/pdf";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/** The extension a downloaded file gets for its checked type (the stored name keeps what the person chose). */
export const EXTENSION_OF: Readonly<Record<EvidenceType, string>> = {
  "application/pdf": ".pdf",
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/webp": ".webp",
};

const EXTENSIONS: Readonly<Record<string, EvidenceType>> = {
  pdf: "application/pdf",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/**
 * Why a name contradicts the content, or null when it does not: a PNG called receipt.pdf is refused (a reader opening
 * it as a PDF would fail, or worse), while a name with no extension, or one naming none of the four kinds, takes the content's type.
 */
export function nameContradicts(name: string, type: EvidenceType): string | null {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1]?.toLowerCase();
  if (!extension) return null;
  const named = EXTENSIONS[extension];
  // "Receipt 12.11.2026" has no extension of a kind; only a name claiming another of the four kinds contradicts.
  if (named === undefined || named === type) return null;
  return `This file's content is ${WORDS[type]}, but its name ends in .${extension}. Check it is the file you meant, and attach it with a name that says what it is.`;
}

const WORDS: Readonly<Record<EvidenceType, string>> = {
  "application/pdf": "a PDF",
  "image/jpeg": "a JPEG photo",
  "image/png": "a PNG image",
  "image/webp": "a WebP image",
};

/** A file name safe to store and show: no path, no control characters, at most 120 characters (letters of any script kept). */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, "").trim();
  return [...(clean || "evidence")].slice(0, 120).join("");
}
