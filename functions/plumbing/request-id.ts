// Ids a person can read out over the phone: no 0/O or 1/I/L confusion.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A request id such as "7F3K-Q2M9-XD4T", logged with every server error. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const chars = Array.from(bytes, (b) => ALPHABET[b % 32]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

export const REQUEST_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A fresh CSP nonce: 128 bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
