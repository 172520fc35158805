// The browser half of passkeys (decision 024). @simplewebauthn/browser is imported only when a person actually adds
// or uses a passkey, so it never lands in a page's first load (the bundle budget).
// - createPasskey(options): asks the authenticator for a new passkey (Settings > Security);
// - signWithPasskey(options): asks it to answer a challenge (signing in, a fresh check).
// Both answer { ok: true, response } (the JSON the server verifies) or { ok: false, message } in the person's words;
// a cancelled or timed-out prompt (NotAllowedError) is a message, never an exception.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";

export type PasskeyResult<T> = { ok: true; response: T } | { ok: false; message: string };

export const PASSKEY_BROWSER_MESSAGES = {
  cancelled: "The passkey request was cancelled or timed out. Try again when you are ready.",
  unsupported: "This browser cannot use passkeys. Use a code by text message instead.",
  alreadyAdded: "This device already holds a passkey for your account.",
  failed: "Your passkey could not be used. Try again.",
} as const;

function messageOf(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  // @simplewebauthn/browser wraps DOMExceptions in a WebAuthnError whose `code` says which case it was.
  const code = error && typeof error === "object" && "code" in error ? String(error.code) : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") return PASSKEY_BROWSER_MESSAGES.alreadyAdded;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.name : "";
  if (name === "NotAllowedError" || cause === "NotAllowedError" || name === "AbortError") return PASSKEY_BROWSER_MESSAGES.cancelled;
  return PASSKEY_BROWSER_MESSAGES.failed;
}

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<PasskeyResult<RegistrationResponseJSON>> {
  const browser = await import("@simplewebauthn/browser");
  if (!browser.browserSupportsWebAuthn()) return { ok: false, message: PASSKEY_BROWSER_MESSAGES.unsupported };
  try {
    return { ok: true, response: await browser.startRegistration({ optionsJSON }) };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

export async function signWithPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<PasskeyResult<AuthenticationResponseJSON>> {
  const browser = await import("@simplewebauthn/browser");
  if (!browser.browserSupportsWebAuthn()) return { ok: false, message: PASSKEY_BROWSER_MESSAGES.unsupported };
  try {
    return { ok: true, response: await browser.startAuthentication({ optionsJSON }) };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** A JSON call to the passkey endpoint: the parsed body and the status (a network failure is a status 0 message). */
export async function passkeyCall(body: Record<string, unknown>): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    const response = await fetch("/authenticate/passkey", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, data };
  } catch {
    return { status: 0, data: { message: "The connection was lost. Check it and try again." } };
  }
}
