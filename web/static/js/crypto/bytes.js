// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): bytes, hex and base64, the error every check throws and small checks of
// values.

export const ENCODER = new TextEncoder();
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
export const LONE_SURROGATE = /\p{Surrogate}/u;

/** A format that is malformed or a proof, signature or commitment that does not verify. */
export class VerificationError extends Error {
  constructor(message) {
    super(message);
    this.name = "VerificationError";
  }
}

export function fail(message) {
  throw new VerificationError(message);
}

/** The UTF-8 bytes of `text` (lone surrogates are refused). */
export function utf8(text) {
  if (LONE_SURROGATE.test(text)) fail("the text is not valid Unicode (a lone surrogate)");
  return ENCODER.encode(text);
}

/** The concatenation of byte arrays (or arrays of byte values). */
export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Whether two byte arrays hold the same bytes. */
export function bytesEqual(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Lowercase hex of bytes. */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes of hex text (either case, an even number of digits). */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^(?:[0-9a-fA-F]{2})*$/.test(hex)) {
    fail("not hex: an even number of the digits 0-9 and a-f");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Standard base64 (with padding) of bytes. */
export function bytesToBase64(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Bytes of standard base64 with padding; anything else is refused. */
export function base64ToBytes(text) {
  if (typeof text !== "string" || !BASE64.test(text)) fail(`${describe(text)} is not standard base64`);
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export function describe(value) {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 44 ? `${text.slice(0, 40)}…` : text;
}

export function isWhole(value) {
  return Number.isSafeInteger(value) && value >= 0;
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function hasExactly(object, keys) {
  const own = Object.keys(object).sort();
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}
