// The links an email carries (decision 053). Opening a notice is `/notifications/<id>/open`: it asks for a session
// like any page, and a notice of someone else's is a 404, so the id alone gives nobody anything. Unsubscribing must
// work from a mail client with no session (RFC 8058's one-click POST), so its link is signed: an HMAC of the person,
// the business, the kind and the channel, under a key of its own derived from the session secret.
import { constantTimeEqual, hex } from "../plumbing/sha256";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "./kinds";

export interface Unsubscription {
  businessId: string;
  userId: string;
  kind: NotificationKind;
  channel: NotificationChannel;
}

export function openNoticePath(notificationId: string): string {
  return `/notifications/${encodeURIComponent(notificationId)}/open`;
}

async function signature(secret: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(`notifications-unsubscribe:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return hex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload)));
}

function toBase64Url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The token of an unsubscribe link: the four parts and their signature. */
export async function unsubscribeToken(secret: string, what: Unsubscription): Promise<string> {
  const payload = [what.businessId, what.userId, what.kind, what.channel].join("|");
  return `${toBase64Url(payload)}.${await signature(secret, payload)}`;
}

export function unsubscribePath(token: string): string {
  return `/notifications/unsubscribe/${token}`;
}

/** What a token unsubscribes from; null for anything not signed by this portal (or malformed). */
export async function readUnsubscribeToken(secret: string, token: string): Promise<Unsubscription | null> {
  const [encoded, sent, ...rest] = token.split(".");
  if (!encoded || !sent || rest.length > 0 || !/^[0-9a-f]{64}$/.test(sent)) return null;
  const payload = fromBase64Url(encoded);
  // One spelling a token: base64's spare bits changed would read as the same payload under the same signature.
  if (payload === null || toBase64Url(payload) !== encoded) return null;
  if (!constantTimeEqual(await signature(secret, payload), sent)) return null;
  const [businessId, userId, kind, channel, ...more] = payload.split("|");
  if (!businessId || !userId || more.length > 0) return null;
  if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind ?? "") || !(NOTIFICATION_CHANNELS as readonly string[]).includes(channel ?? "")) return null;
  return { businessId, userId, kind: kind as NotificationKind, channel: channel as NotificationChannel };
}

/**
 * Whether a request is an unsubscribe link's: a mail client's one-click POST (RFC 8058) comes from no page of ours,
 * with no Origin, so the Worker's same-origin rule lets these through; the signed token is their whole authority.
 */
export function isUnsubscribePath(pathname: string): boolean {
  return /^\/notifications\/unsubscribe\/[^/]+$/.test(pathname);
}
