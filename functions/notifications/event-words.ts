// What the notices besides requests and disputes say (decision 053): a person's access, their sign-in's security,
// money that did not reach its rail, webhook endpoints, silent terminals and the digest. Pure and safe (safeWords),
// written once when the notice is made.
import { accraDay, cedis, safeWords, type NoticeWords } from "./kinds";

export function memberWords(change: { action: "added" | "role_changed" | "removed"; business: string; role: string; by: string }): NoticeWords {
  if (change.action === "added") {
    return {
      title: `You were added to ${change.business}`,
      body: safeWords(`${change.by} added you to ${change.business} as ${change.role}. Sign in to start.`),
    };
  }
  if (change.action === "role_changed") {
    return { title: "Your role was changed", body: safeWords(`${change.by} changed your role in ${change.business} to ${change.role}.`) };
  }
  return { title: `You were removed from ${change.business}`, body: safeWords(`${change.by} removed your access to ${change.business}.`) };
}

/** The sign-in and security events a person is always told of, and what each says. */
export const SECURITY_EVENTS = {
  "auth.business_chosen": { kind: "security.sign_in", title: "A sign-in from a new browser", what: "You signed in from a browser not used before" },
  "auth.passkey.added": { kind: "security.factor_changed", title: "A passkey was added", what: "A passkey was added to your sign-in" },
  "auth.passkey.removed": { kind: "security.factor_changed", title: "A passkey was removed", what: "A passkey was removed from your sign-in" },
  "auth.phone.linked": { kind: "security.factor_changed", title: "A phone number was added", what: "A phone number was added to your sign-in" },
  "auth.totp.added": { kind: "security.factor_changed", title: "An authenticator app was added", what: "An authenticator app was added to your sign-in" },
  "auth.totp.removed": {
    kind: "security.factor_changed",
    title: "An authenticator app was removed",
    what: "An authenticator app was removed from your sign-in",
  },
  "auth.sign_out_everywhere": {
    kind: "security.signed_out_everywhere",
    title: "You were signed out everywhere",
    what: "Every session of yours was signed out",
  },
} as const;
export type SecurityAction = keyof typeof SECURITY_EVENTS;

/** A browser named as people know it ("Chrome on Android"), never the whole user agent. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return "an unknown browser";
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : "a browser";
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return system ? `${browser} on ${system}` : browser;
}

export function securityWords(event: { action: SecurityAction; at: string; userAgent: string | null }): NoticeWords {
  const known = SECURITY_EVENTS[event.action];
  const when = accraTime(event.at);
  return {
    title: known.title,
    body: safeWords(
      `${known.what} (${browserName(event.userAgent)}, ${when}). If this was not you, sign out everywhere from Settings and tell your administrator.`,
    ),
  };
}

/** "21 Nov 2026 14:05", in Africa/Accra (UTC+0). */
function accraTime(iso: string): string {
  const ms = Date.parse(iso);
  const date = new Date(ms);
  return `${accraDay(ms)} ${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}`;
}

export function payoutFailedWords(payout: { merchant: string; amount: number; reference: string; reason: string | null }): NoticeWords {
  return {
    title: "A payout failed on its rail",
    body: safeWords(`${cedis(payout.amount)} to ${payout.merchant} (${payout.reference}) did not go through: ${payout.reason ?? "no reason given"}.`),
  };
}

export function settlementRunWords(run: { day: number; failed: number; total: number; amount: number }): NoticeWords {
  return {
    title: "A settlement run finished with failed payouts",
    body: safeWords(
      `The settlement run of ${accraDay(run.day)} finished with ${run.failed} of ${run.total} ${run.total === 1 ? "payout" : "payouts"} failed (${cedis(run.amount)} not paid out).`,
    ),
  };
}

export function refundFailedWords(refund: { merchant: string; amount: number; reference: string; reason: string }): NoticeWords {
  return {
    title: "A refund failed on its rail",
    body: safeWords(
      `The refund of ${cedis(refund.amount)} on ${refund.merchant}'s payment ${refund.reference} failed: ${refund.reason}. The money is back in the balance.`,
    ),
  };
}

export function webhookWords(endpoint: { disabled: boolean; url: string; reason: string | null }): NoticeWords {
  // Only the host: a URL's path or query may carry a partner's own token.
  let host = endpoint.url;
  try {
    host = new URL(endpoint.url).host;
  } catch {
    host = "an endpoint";
  }
  return endpoint.disabled
    ? {
        title: "A webhook endpoint was disabled",
        body: safeWords(`The endpoint at ${host} was disabled: ${endpoint.reason ?? "it kept failing"}. Events wait until it is enabled again.`),
      }
    : {
        title: "A webhook endpoint keeps failing",
        body: safeWords(`Deliveries to the endpoint at ${host} have failed for over an hour. It is disabled if it does not answer soon.`),
      };
}

/**
 * The digest: a title with its day, a line counting what waits, a line each for what it tells (each safe), and how
 * many terminals are silent (their serials are on the terminals list, one link away).
 */
export function digestWords(digest: { day: number; waiting: number; lines: readonly string[]; silent: number; limit: number }): NoticeWords {
  const parts: string[] = [];
  if (digest.waiting > 0) parts.push(`${digest.waiting} ${digest.waiting === 1 ? "request waits" : "requests wait"} for your decision.`);
  parts.push(...digest.lines.slice(0, digest.limit).map((line) => `• ${safeWords(line)}`));
  if (digest.lines.length > digest.limit) parts.push(`• and ${digest.lines.length - digest.limit} more under the bell.`);
  if (digest.silent > 0) {
    parts.push(`${digest.silent} ${digest.silent === 1 ? "terminal is" : "terminals are"} silent (not seen for a day): POS Terminals, Silent, lists them.`);
  }
  return { title: `Your digest for ${accraDay(digest.day)}`, body: parts.join("\n") };
}
