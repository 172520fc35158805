// A software WebAuthn authenticator for tests without a browser: an ES256 key made with WebCrypto, the
// clientDataJSON and authenticator data a real one builds, a "none" attestation in CBOR (the library's own
// encoder), and assertions signed over authenticatorData || SHA-256(clientDataJSON). Each answer can be bent the
// way an attacker would (another origin, another relying party id) to show the portal refuses it.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

const encoder = new TextEncoder();

/** Where the answer says it came from, and which relying party it signs for (default: the options' one). */
export interface Ceremony {
  origin: string;
  rpId?: string;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  return new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/** WebCrypto signs ECDSA as r || s; WebAuthn carries it DER-encoded. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
    let body = bytes.slice(start);
    if (body[0]! & 0x80) body = concat(new Uint8Array([0]), body);
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const r = integer(raw.slice(0, 32));
  const s = integer(raw.slice(32));
  return concat(new Uint8Array([0x30, r.length + s.length]), r, s);
}

export class SoftwareAuthenticator {
  counter = 0;

  private constructor(
    readonly credentialId: Uint8Array,
    private readonly keys: CryptoKeyPair,
  ) {}

  static async create(): Promise<SoftwareAuthenticator> {
    const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    return new SoftwareAuthenticator(crypto.getRandomValues(new Uint8Array(16)), keys);
  }

  get id(): string {
    return isoBase64URL.fromBuffer(this.credentialId as Uint8Array<ArrayBuffer>);
  }

  private async coseKey(): Promise<Uint8Array> {
    const jwk = await crypto.subtle.exportKey("jwk", this.keys.publicKey);
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Uint8Array<ArrayBuffer> {
    return encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create, as a platform authenticator that verified the person (UP, UV). */
  async register(options: PublicKeyCredentialCreationOptionsJSON, ceremony: Ceremony): Promise<RegistrationResponseJSON> {
    const rpIdHash = await sha256(encoder.encode(ceremony.rpId ?? options.rp.id!));
    const credentialIdLength = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const authData = concat(
      rpIdHash,
      new Uint8Array([0x45]),
      uint32(this.counter),
      new Uint8Array(16),
      credentialIdLength,
      this.credentialId,
      await this.coseKey(),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(this.clientData("webauthn.create", options.challenge, ceremony.origin)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get: signs the challenge, the counter one higher each time. */
  async sign(options: PublicKeyCredentialRequestOptionsJSON, ceremony: Ceremony): Promise<AuthenticationResponseJSON> {
    this.counter += 1;
    const rpIdHash = await sha256(encoder.encode(ceremony.rpId ?? options.rpId!));
    const authenticatorData = concat(rpIdHash, new Uint8Array([0x05]), uint32(this.counter));
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, ceremony.origin);
    const signed = concat(authenticatorData, await sha256(clientDataJSON));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authenticatorData),
        signature: isoBase64URL.fromBuffer(derSignature(raw) as Uint8Array<ArrayBuffer>),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
