// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): C2SP verifier keys, signed notes (Ed25519, WebCrypto) and tlog checkpoints, as
// domain/signed_note.py.

import {
  LONE_SURROGATE,
  base64ToBytes,
  bytesEqual,
  bytesToBase64,
  concatBytes,
  describe,
  fail,
  utf8,
} from "./bytes.js";
import { HASH_SIZE, sha256, subtle } from "./merkle.js";

const ALG_ED25519 = 0x01;
const MAX_SIGNATURES = 100;
const MAX_TREE_SIZE = (1n << 63n) - 1n; // a signed 64-bit integer, as Go's tlog
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const KEY_ID_HEX = /^[0-9a-fA-F]{8}$/;
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/; // ASCII controls other than newline
// What Python's str.isspace() calls a space (domain.signed_note.is_valid_name).
const SPACE = /[\t\n\v\f\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function isValidName(name) {
  return typeof name === "string" && name !== "" && !name.includes("+") && !SPACE.test(name)
    && !CONTROL.test(name);
}

async function keyId(name, typedKey) {
  const digest = await sha256(concatBytes(utf8(name), [0x0a], typedKey));
  return ((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0;
}

/**
 * Parse a C2SP verifier key `<name>+<key ID hex>+<base64(0x01 || Ed25519 public key)>`,
 * checking the key ID. Returns {name, keyId, publicKey, vkey} (vkey: the canonical text).
 */
export async function parseVerifierKey(text) {
  if (typeof text !== "string") fail("a verifier key is text: <name>+<key id>+<base64 key>");
  const key = text.trim();
  const first = key.indexOf("+");
  const second = first < 0 ? -1 : key.indexOf("+", first + 1);
  const name = key.slice(0, first);
  const idHex = key.slice(first + 1, second);
  const key64 = key.slice(second + 1);
  if (first < 0 || second < 0 || !KEY_ID_HEX.test(idHex) || !isValidName(name) || !key64) {
    fail(`malformed verifier key ${describe(key)}: it is <name>+<key id>+<base64 key>`);
  }
  let typed;
  try {
    typed = base64ToBytes(key64);
  } catch {
    fail(`malformed verifier key ${describe(key)}: its key is not standard base64`);
  }
  if (!typed.length) fail(`malformed verifier key ${describe(key)}`);
  const id = await keyId(name, typed);
  if (parseInt(idHex, 16) !== id) fail(`the key ID in verifier key ${describe(key)} does not match the key`);
  if (typed[0] !== ALG_ED25519) fail(`verifier key ${describe(key)} is not an Ed25519 (0x01) key`);
  if (typed.length !== 33) fail(`verifier key ${describe(key)} does not hold a 32-byte Ed25519 key`);
  const idText = id.toString(16).padStart(8, "0");
  const vkey = `${name}+${idText}+${bytesToBase64(typed)}`;
  // Only the canonical text names a key (docs/protocol-tamper-evidence.md section 7).
  if (vkey !== key) fail(`verifier key ${describe(key)} is not in canonical form (lowercase key ID, canonical base64)`);
  return { name, keyId: id, publicKey: typed.slice(1), vkey };
}

async function resolveKey(key) {
  return typeof key === "string" ? parseVerifierKey(key) : key;
}

/** Whether `signature` is the Ed25519 signature of `message` by the 32-byte `publicKey`. */
export async function ed25519Verify(publicKey, signature, message) {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  return subtle().verify({ name: "Ed25519" }, await importEd25519(publicKey), signature, message);
}

const IMPORTED = new Map(); // base64 public key -> Promise of its CryptoKey

function importEd25519(publicKey) {
  const id = bytesToBase64(publicKey);
  if (!IMPORTED.has(id)) {
    const imported = subtle().importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"])
      .catch((error) => fail(`this browser cannot check Ed25519 signatures (${error.message})`));
    IMPORTED.set(id, imported);
    imported.catch(() => IMPORTED.delete(id));
  }
  return IMPORTED.get(id);
}

function parseSignatureLine(line) {
  if (!line.startsWith("\u2014 ")) {
    fail("malformed note: a signature line must start with an em dash and a space");
  }
  const rest = line.slice(2);
  const space = rest.indexOf(" ");
  const name = space < 0 ? rest : rest.slice(0, space);
  const b64 = space < 0 ? "" : rest.slice(space + 1);
  if (!isValidName(name) || !b64) {
    fail("malformed note: a signature line must be '\u2014 <key name> <base64 signature>'");
  }
  let raw;
  try {
    raw = base64ToBytes(b64);
  } catch {
    fail(`malformed note: the signature of ${name} is not standard base64`);
  }
  if (raw.length < 5) fail(`malformed note: the signature of ${name} is too short`);
  const id = ((raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]) >>> 0;
  return { name, keyId: id, signature: raw.slice(4) };
}

/**
 * Open a C2SP signed note with a verifier key (text or a parsed key; or a list of them).
 * Signatures by other keys are ignored; one by a given key must verify; at least one must.
 * Returns {text, signatures: [{name, keyId}]}; throws VerificationError otherwise.
 */
export async function openSignedNote(noteText, verifierKeyText) {
  const given = Array.isArray(verifierKeyText) ? verifierKeyText : [verifierKeyText];
  const known = new Map();
  for (const key of await Promise.all(given.map(resolveKey))) {
    const id = `${key.name}+${key.keyId}`;
    if (known.has(id) && !bytesEqual(known.get(id).publicKey, key.publicKey)) {
      fail(`ambiguous key ${key.name}+${key.keyId.toString(16)}: several verifiers share it`);
    }
    known.set(id, key);
  }
  if (typeof noteText !== "string") fail("a signed note is text");
  if (LONE_SURROGATE.test(noteText)) fail("malformed note: it is not valid UTF-8");
  if (CONTROL.test(noteText)) fail("malformed note: it contains a control character other than newline");
  const split = noteText.lastIndexOf("\n\n");
  if (split < 0) fail("malformed note: no blank line before the signatures");
  const text = noteText.slice(0, split + 1);
  const block = noteText.slice(split + 2);
  if (!block || !block.endsWith("\n")) {
    fail("malformed note: the signature lines must follow the blank line and end in a newline");
  }
  const lines = block.slice(0, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) fail(`malformed note: more than ${MAX_SIGNATURES} signature lines`);
  const message = utf8(text);
  const seen = new Set();
  const verified = [];
  for (const line of lines.map(parseSignatureLine)) {
    const id = `${line.name}+${line.keyId}`;
    const key = known.get(id);
    if (!key || seen.has(id)) continue; // an unknown key is ignored, as C2SP requires
    seen.add(id);
    if (!(await ed25519Verify(key.publicKey, line.signature, message))) {
      fail(`invalid signature for key ${line.name}+${line.keyId.toString(16).padStart(8, "0")}`);
    }
    verified.push({ name: line.name, keyId: line.keyId });
  }
  if (!verified.length) fail("note has no verifiable signatures: no known key signed it");
  return { text, signatures: verified };
}

/**
 * Parse a C2SP tlog-checkpoint body strictly: origin, size (decimal, no leading zero), the
 * canonical base64 of a 32-byte root, optional extension lines; each line ends in a newline.
 * Returns {origin, size, rootHash, extensions}.
 */
export function parseCheckpoint(body) {
  if (typeof body !== "string" || !body.endsWith("\n")) fail("a checkpoint must end with a newline");
  const lines = body.slice(0, -1).split("\n");
  if (lines.length < 3) fail("a checkpoint has at least three lines: origin, tree size and root hash");
  if (lines.some((line) => !line)) fail("a checkpoint has no empty lines");
  if (lines.some((line) => CONTROL.test(line))) fail("a checkpoint has no control characters");
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (!DECIMAL.test(sizeText)) {
    fail(`checkpoint tree size ${describe(sizeText)} is not decimal without leading zeros`);
  }
  const big = BigInt(sizeText);
  if (big > MAX_TREE_SIZE) fail(`checkpoint tree size ${sizeText} is above 2^63 - 1`);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) fail(`checkpoint tree size ${sizeText} is too large to check here`);
  let rootHash;
  try {
    rootHash = base64ToBytes(rootText);
  } catch {
    rootHash = null;
  }
  if (!rootHash || rootHash.length !== HASH_SIZE || bytesToBase64(rootHash) !== rootText) {
    fail(`checkpoint root hash ${describe(rootText)} is not the base64 of ${HASH_SIZE} bytes`);
  }
  return { origin, size: Number(big), rootHash, extensions };
}

/** Open a signed checkpoint note with `key` and parse it; check its origin if one is given. */
export async function openCheckpoint(noteText, key, origin = null) {
  const { text } = await openSignedNote(noteText, key);
  const checkpoint = parseCheckpoint(text);
  if (origin !== null && checkpoint.origin !== origin) {
    fail(`checkpoint origin ${describe(checkpoint.origin)} is not the expected ${describe(origin)}`);
  }
  return checkpoint;
}
