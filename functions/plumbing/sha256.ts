// SHA-256 as lowercase hex: the one helper for the portal's fingerprints and key hashes, and the one compare of a digest
// that was sent (a signature, a one-time code's HMAC) with the one expected.

export function hex(bytes: ArrayBuffer | Uint8Array): string {
  return [...(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/**
 * Whether two texts are the same, in a time that tells nothing of where they differ: every character is read whatever
 * the ones before it were, so a guesser cannot find a signature or a code's HMAC one character at a time. Only the
 * length shows, and a digest's length is public.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
