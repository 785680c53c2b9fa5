// dealerroom's public formats, checked in the browser with WebCrypto (SHA-256, Ed25519).
//
// Pure functions, no DOM. Byte for byte the contracts of docs/PROTOCOL.md (commitments, JCS),
// docs/protocol-tamper-evidence.md (leaves, the RFC 6962 tree and its proofs, C2SP signed
// notes and checkpoints) and docs/protocol-bundles.md (receipts, bundles), as implemented in
// Python by domain/canonical.py, domain/commitment.py, domain/merkle.py,
// domain/signed_note.py and replay/receipt.py, replay/verify.py.
//
// Hashes are Uint8Array; commitments and salts are lowercase hex text; proof hashes in
// receipts are standard base64. Failures throw VerificationError with the reason in one
// sentence, except the two report builders (verifyReceipt, verifyLog), which return every
// finding instead.

const ENCODER = new TextEncoder();
const HASH_SIZE = 32;
const COMMIT_TAG = "dealerroom/commit/v1";
const SUBMISSION_TAG = "dealerroom/submission/v1";
const RECEIPT_FORMAT = "dealerroom/receipt/v1";
const CONSISTENCY_FORMAT = "dealerroom/consistency/v1";
const BUNDLE_FORMAT = "dealerroom/bundle/v1";
const ALG_ED25519 = 0x01;
const MAX_SIGNATURES = 100;
const MAX_TREE_SIZE = (1n << 63n) - 1n; // a signed 64-bit integer, as Go's tlog
const RECEIPT_KEYS = [
  "checkpoint", "format", "inclusion_proof", "leaf_index", "match_id", "origin", "public_key",
  "record", "tree_size",
];
const RECORD_KEYS = ["at", "data", "seq", "type"];

const HEX64 = /^[0-9a-f]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const KEY_ID_HEX = /^[0-9a-fA-F]{8}$/;
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/; // ASCII controls other than newline
const LONE_SURROGATE = /\p{Surrogate}/u;
// What Python's str.isspace() calls a space (domain.signed_note.is_valid_name).
const SPACE = /[\t\n\v\f\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** A format that is malformed or a proof, signature or commitment that does not verify. */
export class VerificationError extends Error {
  constructor(message) {
    super(message);
    this.name = "VerificationError";
  }
}

function fail(message) {
  throw new VerificationError(message);
}

// ---------------------------------------------------------------------------------------
// Bytes, hex and base64
// ---------------------------------------------------------------------------------------

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

function describe(value) {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 44 ? `${text.slice(0, 40)}…` : text;
}

function isWhole(value) {
  return Number.isSafeInteger(value) && value >= 0;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function hasExactly(object, keys) {
  const own = Object.keys(object).sort();
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

// ---------------------------------------------------------------------------------------
// RFC 8785 canonical JSON (JCS)
// ---------------------------------------------------------------------------------------

/**
 * The RFC 8785 canonical JSON text of a JSON value: object members sorted by the UTF-16 code
 * units of their names, no whitespace, numbers as ECMAScript writes them (which is what RFC
 * 8785 prescribes), strings escaped as JSON.stringify does. Encode it with `utf8()`.
 */
export function canonicalJSON(value) {
  return serialize(value, "$");
}

function serialize(value, path) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) fail(`${path} is ${value}, which JSON cannot hold`);
      return JSON.stringify(value); // ECMAScript Number::toString; -0 becomes 0
    case "string":
      return serializeString(value, path);
    case "object":
      if (Array.isArray(value)) {
        return `[${value.map((item, i) => serialize(item, `${path}[${i}]`)).join(",")}]`;
      }
      return `{${Object.keys(value)
        .sort() // UTF-16 code unit order, as RFC 8785 section 3.2.3 asks
        .map((k) => `${serializeString(k, path)}:${serialize(value[k], `${path}.${k}`)}`)
        .join(",")}}`;
    default:
      return fail(`${path} is a ${typeof value}, which JSON cannot hold`);
  }
}

function serializeString(text, path) {
  if (LONE_SURROGATE.test(text)) fail(`${path} holds a lone surrogate, which I-JSON forbids`);
  return JSON.stringify(text);
}

// ---------------------------------------------------------------------------------------
// SHA-256, leaves and the RFC 6962 / 9162 tree
// ---------------------------------------------------------------------------------------

function subtle() {
  const api = globalThis.crypto && globalThis.crypto.subtle;
  if (!api) fail("this page has no WebCrypto (crypto.subtle): open it over HTTPS or on localhost");
  return api;
}

/** SHA-256 of bytes (or of a text's UTF-8 bytes), as a 32-byte Uint8Array. */
export async function sha256(data) {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

/** The leaf hash of a public record: SHA-256(0x00 || JCS(record)). */
export function leafHash(record) {
  // canonicalJSON refuses lone surrogates, so the text encodes as it is.
  return sha256(concatBytes([0x00], ENCODER.encode(canonicalJSON(record))));
}

/** The hash of an interior node: SHA-256(0x01 || left || right). */
export function nodeHash(left, right) {
  return sha256(concatBytes([0x01], left, right));
}

/** The root hash of the empty tree: SHA-256 of nothing. */
export function emptyRoot() {
  return sha256(new Uint8Array(0));
}

function checkHash(name, value) {
  if (!(value instanceof Uint8Array) || value.length !== HASH_SIZE) {
    fail(`${name} must be a ${HASH_SIZE}-byte hash`);
  }
}

function checkSize(name, value) {
  if (!isWhole(value)) fail(`${name} must be a whole number, not ${describe(value)}`);
}

// Sizes may pass 2^32, so no bitwise operators on them.
const odd = (n) => n % 2 === 1;
const half = (n) => Math.floor(n / 2);

function isPowerOfTwo(n) {
  let m = n;
  while (m > 1 && !odd(m)) m = half(m);
  return m === 1;
}

// The largest power of two strictly below n (n >= 2): where RFC 9162 splits a tree.
function split(n) {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The root (RFC 9162 MTH) of the tree over a list of leaf hashes. */
export async function merkleRoot(leafHashes) {
  if (leafHashes.length === 0) return emptyRoot();
  leafHashes.forEach((h, i) => checkHash(`leaf hash ${i}`, h));
  let level = leafHashes;
  // Pairing left to right and lifting an odd last node unchanged builds exactly the RFC
  // tree (its left part is always the largest power of two).
  while (level.length > 1) {
    const pairs = [];
    for (let i = 0; i + 1 < level.length; i += 2) pairs.push(nodeHash(level[i], level[i + 1]));
    const next = await Promise.all(pairs);
    if (odd(level.length)) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

// One step of the proof walks of RFC 9162 (2.1.3.2 step 3, 2.1.4.2 step 6): whether the
// proof hash is a left sibling, and fn and sn for the next step.
function walkStep(fn, sn) {
  let f = fn;
  let s = sn;
  const left = odd(f) || f === s;
  if (left) {
    while (!odd(f) && f !== 0) {
      f = half(f);
      s = half(s);
    }
  }
  return { left, fn: half(f), sn: half(s) };
}

/**
 * The root an inclusion proof gives for leaf `index` (0-based) of a tree of `size`
 * (RFC 9162 section 2.1.3.2). Throws if the proof has the wrong number of hashes.
 */
export async function rootFromInclusion(leaf, index, size, proof) {
  checkSize("the leaf index", index);
  checkSize("the tree size", size);
  if (index >= size) fail(`leaf index ${index} is not below the tree size ${size}`);
  checkHash("the leaf hash", leaf);
  proof.forEach((h, i) => checkHash(`proof hash ${i}`, h));
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) fail(`the inclusion proof has more hashes than leaf ${index} of ${size} needs`);
    const step = walkStep(fn, sn);
    r = step.left ? await nodeHash(p, r) : await nodeHash(r, p);
    ({ fn, sn } = step);
  }
  if (sn !== 0) fail(`the inclusion proof lacks hashes for leaf ${index} of ${size}`);
  return r;
}

/** Check that `proof` puts `leaf` at `index` of the tree of `size` with `root`; throws if not. */
export async function verifyInclusion(leaf, index, size, proof, root) {
  const computed = await rootFromInclusion(leaf, index, size, proof);
  checkHash("the root hash", root);
  if (!bytesEqual(computed, root)) fail("the inclusion proof gives a different root hash");
}

/**
 * Check that `proof` shows the tree `newRoot` of `newSize` extends the tree `oldRoot` of
 * `oldSize` (RFC 9162 section 2.1.4.2, with transparency-dev/merkle's edge cases); throws if not.
 */
export async function verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof) {
  checkSize("the old size", oldSize);
  checkSize("the new size", newSize);
  if (newSize < oldSize) fail(`the new size ${newSize} is below the old size ${oldSize}`);
  if (oldSize === 0) fail("a consistency proof from the empty tree proves nothing");
  if (oldSize === newSize) {
    if (proof.length) fail("a consistency proof between equal sizes must be empty");
    if (!bytesEqual(oldRoot, newRoot)) {
      fail(`the two roots differ although both trees have size ${oldSize}`);
    }
    return;
  }
  if (!proof.length) fail(`the consistency proof from size ${oldSize} to ${newSize} is empty`);
  checkHash("the old root hash", oldRoot);
  checkHash("the new root hash", newRoot);
  proof.forEach((h, i) => checkHash(`proof hash ${i}`, h));
  const path = [...proof];
  if (isPowerOfTwo(oldSize)) path.unshift(oldRoot);
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) fail(`the consistency proof from ${oldSize} to ${newSize} has too many hashes`);
    const step = walkStep(fn, sn);
    if (step.left) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
    } else {
      sr = await nodeHash(sr, c);
    }
    ({ fn, sn } = step);
  }
  if (sn !== 0) fail(`the consistency proof from ${oldSize} to ${newSize} is missing hashes`);
  if (!bytesEqual(fr, oldRoot)) {
    fail(`the consistency proof does not give the old root at size ${oldSize}`);
  }
  if (!bytesEqual(sr, newRoot)) {
    fail(`the consistency proof does not give the new root at size ${newSize}`);
  }
}

// Run async jobs in batches (all of a batch at once: WebCrypto works in parallel).
async function inBatches(items, job, size = 1024) {
  const out = [];
  for (let at = 0; at < items.length; at += size) {
    out.push(...(await Promise.all(items.slice(at, at + size).map(job))));
  }
  return out;
}

// Every complete subtree of a list of leaf hashes: levels[k][i] is the hash of leaves
// [i * 2^k, (i + 1) * 2^k). Each level is hashed in parallel; the root of any size and the
// hash of any subtree on a proof path are then folds of a few stored hashes (as in
// domain.merkle.MerkleLog).
class Tree {
  constructor(levels) {
    this.levels = levels;
  }

  static async build(leaves) {
    const levels = [leaves];
    for (let level = leaves; level.length > 1;) {
      const pairs = Array.from({ length: half(level.length) }, (_, i) => [level[2 * i], level[2 * i + 1]]);
      level = await inBatches(pairs, ([l, r]) => nodeHash(l, r), 4096);
      levels.push(level);
    }
    return new Tree(levels);
  }

  // MTH of leaves [lo, hi), where lo is a multiple of a power of two at least hi - lo (true
  // of the whole tree of any size and of every subtree on a proof path).
  async rangeHash(lo, hi) {
    if (hi === lo) return emptyRoot();
    const parts = [];
    let start = lo;
    for (let level = this.levels.length - 1; level >= 0; level -= 1) {
      const width = 2 ** level;
      if (hi - start >= width) {
        parts.push(this.levels[level][start / width]);
        start += width;
      }
    }
    let h = parts[parts.length - 1];
    for (let i = parts.length - 2; i >= 0; i -= 1) h = await nodeHash(parts[i], h);
    return h;
  }

  root(size) {
    return this.rangeHash(0, size);
  }
}

// ---------------------------------------------------------------------------------------
// C2SP keys, signed notes and checkpoints
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// Commitments
// ---------------------------------------------------------------------------------------

/** The lowercase canonical UUID text of a match id (as Python's uuid.UUID reads it). */
export function canonicalMatchId(matchId) {
  const hex = String(matchId).trim().replace(/^urn:/, "").replace(/^uuid:/, "")
    .replace(/^\{/, "").replace(/\}$/, "").replaceAll("-", "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) fail(`${describe(matchId)} is not a match id (a UUID)`);
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function lp(bytes) {
  const n = bytes.length;
  return concatBytes([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], bytes);
}

/**
 * The commitment (64 lowercase hex digits) to `payload` by `player` in step `step` of the
 * match: SHA-256("dealerroom/commit/v1" || 0x00 || lp(match_id) || lp(step) || lp(player)
 * || lp(JCS(payload)) || lp(salt)). `saltHex` is 64 lowercase hex digits.
 */
export async function commitment(matchId, step, player, payload, saltHex) {
  if (typeof saltHex !== "string" || !HEX64.test(saltHex)) fail("a salt is 64 lowercase hex digits");
  if (!isWhole(step)) fail("a step number is a non-negative integer");
  if (typeof player !== "string") fail("a player id is text");
  const message = concatBytes(
    utf8(COMMIT_TAG), [0x00],
    lp(utf8(canonicalMatchId(matchId))),
    lp(utf8(String(step))),
    lp(utf8(player)),
    lp(utf8(canonicalJSON(payload))),
    lp(hexToBytes(saltHex)),
  );
  return bytesToHex(await sha256(message));
}

/** A fresh salt: 32 random bytes from the browser's CSPRNG, as 64 lowercase hex digits. */
export function randomSaltHex() {
  if (!globalThis.crypto || !globalThis.crypto.getRandomValues) fail("this browser has no crypto.getRandomValues");
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** The bytes a player signs for a submission (protocol-bundles.md section 3). */
export function submissionMessage(matchId, step, player, commitmentHex) {
  return utf8(`${SUBMISSION_TAG}\n${canonicalMatchId(matchId)}\n${step}\n${player}\n${commitmentHex}\n`);
}

// ---------------------------------------------------------------------------------------
// Receipts
// ---------------------------------------------------------------------------------------

/** Split `<prefix>/match/<lowercase match id>` into [prefix, matchId]; throws otherwise. */
export function splitOrigin(origin) {
  const at = typeof origin === "string" ? origin.lastIndexOf("/match/") : -1;
  const prefix = at < 0 ? "" : origin.slice(0, at);
  const matchId = at < 0 ? "" : origin.slice(at + "/match/".length);
  let canonical = null;
  try {
    canonical = canonicalMatchId(matchId);
  } catch {
    canonical = null;
  }
  if (!prefix || canonical !== matchId) {
    fail(`origin ${describe(origin)} is not <prefix>/match/<lowercase match id>`);
  }
  return [prefix, matchId];
}

function checkRecordShape(record, where) {
  if (!isObject(record) || !hasExactly(record, RECORD_KEYS)) {
    fail(`${where} is an object with exactly seq, type, at and data`);
  }
  if (!isWhole(record.seq)) fail(`${where}.seq is a whole number`);
  if (typeof record.type !== "string" || typeof record.at !== "string") fail(`${where}.type and .at are text`);
  if (!isObject(record.data)) fail(`${where}.data is an object`);
}

function decodeHashes(values, where) {
  if (!Array.isArray(values)) fail(`${where} is a list of base64 hashes`);
  return values.map((value, i) => {
    let raw = null;
    try {
      raw = base64ToBytes(value);
    } catch {
      raw = null;
    }
    if (!raw || raw.length !== HASH_SIZE) fail(`${where}[${i}] is not the base64 of a 32-byte hash`);
    return raw;
  });
}

function checkReceiptShape(receipt) {
  if (!isObject(receipt) || !hasExactly(receipt, RECEIPT_KEYS)) {
    fail(`a receipt is an object with exactly the keys ${RECEIPT_KEYS.join(", ")}`);
  }
  if (receipt.format !== RECEIPT_FORMAT) {
    fail(`format is ${describe(receipt.format)}; this checker knows "${RECEIPT_FORMAT}"`);
  }
  const [, matchId] = splitOrigin(receipt.origin);
  checkRecordShape(receipt.record, "receipt.record");
  if (receipt.match_id !== matchId) fail(`match_id ${describe(receipt.match_id)} is not the match of the origin`);
  for (const name of ["leaf_index", "tree_size"]) {
    if (!isWhole(receipt[name])) fail(`${name} is a whole number, not ${describe(receipt[name])}`);
  }
  if (typeof receipt.checkpoint !== "string" || typeof receipt.public_key !== "string") {
    fail("checkpoint and public_key are text");
  }
}

// Run the checks in order; once one fails, the ones after it are skipped.
async function runChecks(steps) {
  const checks = [];
  let failed = false;
  for (const [name, step] of steps) {
    if (failed) {
      checks.push({ name, status: "skipped", detail: "not checked: an earlier check failed" });
      continue;
    }
    try {
      checks.push({ name, status: "pass", detail: await step() });
    } catch (error) {
      if (!(error instanceof VerificationError)) throw error;
      checks.push({ name, status: "fail", detail: error.message });
      failed = true;
    }
  }
  return { ok: !failed, checks };
}

/**
 * Check a receipt (protocol-bundles.md section 2) with a pinned `trustedKey` (verifier key
 * text) or else the receipt's own key; with `later` ({checkpoint, consistency_proof}, as the
 * service serves it, with or without "format" and "old_size"), also that a newer checkpoint
 * extends it. Never throws for a bad receipt: returns {ok, checks: [{name, status ("pass",
 * "fail" or "skipped"), detail}], receipt facts (matchId, leafIndex, treeSize, player, step,
 * commitment, key, root, laterSize)}.
 */
export async function verifyReceipt(receipt, { trustedKey = null, later = null } = {}) {
  const facts = {};
  let key = null;
  let checkpoint = null;
  const steps = [
    ["shape", async () => {
      checkReceiptShape(receipt);
      const data = receipt.record.data;
      Object.assign(facts, {
        matchId: receipt.match_id, leafIndex: receipt.leaf_index, treeSize: receipt.tree_size,
        type: receipt.record.type, player: data.player, step: data.step, commitment: data.commitment,
      });
      return `a ${RECEIPT_FORMAT} for match ${receipt.match_id}, record ${receipt.leaf_index} (${receipt.record.type})`;
    }],
    ["key", async () => {
      const own = await parseVerifierKey(receipt.public_key);
      key = own;
      if (trustedKey !== null && String(trustedKey).trim() !== "") {
        const pinned = await parseVerifierKey(String(trustedKey));
        if (pinned.vkey !== own.vkey) fail(`the receipt names the key ${own.vkey}, not the expected ${pinned.vkey}`);
        facts.key = own.vkey;
        return `signed by the pinned key ${own.vkey}`;
      }
      facts.key = own.vkey;
      return `the receipt's own key ${own.vkey} (pin the host's key to know who signed)`;
    }],
    ["checkpoint", async () => {
      checkpoint = await openCheckpoint(receipt.checkpoint, key, receipt.origin);
      if (checkpoint.size !== receipt.tree_size) {
        fail(`the checkpoint is at size ${checkpoint.size}, the receipt says ${receipt.tree_size}`);
      }
      facts.root = bytesToBase64(checkpoint.rootHash);
      return `the signed checkpoint of ${checkpoint.origin} at size ${checkpoint.size} verifies`;
    }],
    ["leaf index", async () => {
      if (receipt.record.seq !== receipt.leaf_index) {
        fail(`the record has seq ${receipt.record.seq} but leaf_index ${receipt.leaf_index}`);
      }
      return `record ${receipt.record.seq} is leaf ${receipt.leaf_index}`;
    }],
    ["inclusion", async () => {
      const proof = decodeHashes(receipt.inclusion_proof, "inclusion_proof");
      try {
        await verifyInclusion(await leafHash(receipt.record), receipt.leaf_index, receipt.tree_size, proof, checkpoint.rootHash);
      } catch (error) {
        if (!(error instanceof VerificationError)) throw error;
        fail(`the record is not in the checkpoint's tree: the inclusion proof of leaf ${receipt.leaf_index} at size ${receipt.tree_size} does not verify: ${error.message}`);
      }
      return `SHA-256(0x00 || JCS(record)) leads through ${proof.length} proof hash(es) to the signed root`;
    }],
  ];
  if (later !== null && later !== undefined) {
    steps.push(["later", async () => {
      if (!isObject(later) || typeof later.checkpoint !== "string") {
        fail('later is {"checkpoint": signed note, "consistency_proof": [base64 hashes]}');
      }
      if ("format" in later && later.format !== CONSISTENCY_FORMAT) {
        fail(`later has the format ${describe(later.format)}, not "${CONSISTENCY_FORMAT}"`);
      }
      if ("old_size" in later && later.old_size !== checkpoint.size) {
        fail(`the consistency proof starts at size ${describe(later.old_size)}, not ${checkpoint.size}`);
      }
      // Every form written so far (domain/receipt.py read_later): the canonical five members,
      // the bare two, or the five with the key `dealerroom checkpoint --from` once added.
      const known = ["format", "match_id", "old_size", "checkpoint", "consistency_proof", "public_key"];
      const unknown = Object.keys(later).filter((name) => !known.includes(name));
      if (unknown.length) fail(`a later checkpoint has no member ${unknown.join(", ")}`);
      if ("match_id" in later && later.match_id !== receipt.match_id) {
        fail("the later checkpoint is for another match than the receipt");
      }
      if ("public_key" in later && later.public_key !== key.vkey) {
        fail("the later checkpoint names another key than the one checking the receipt");
      }
      const proof = decodeHashes(later.consistency_proof, "later.consistency_proof");
      let newer;
      try {
        newer = await openCheckpoint(later.checkpoint, key, receipt.origin);
      } catch (error) {
        if (!(error instanceof VerificationError)) throw error;
        fail(`the later checkpoint does not verify: ${error.message}`);
      }
      try {
        await verifyConsistency(checkpoint.size, newer.size, checkpoint.rootHash, newer.rootHash, proof);
      } catch (error) {
        if (!(error instanceof VerificationError)) throw error;
        fail(`the log at size ${newer.size} does not extend the receipt's checkpoint at size ${checkpoint.size}: ${error.message}`);
      }
      facts.laterSize = newer.size;
      return `the log at size ${newer.size} extends the receipt's checkpoint at size ${checkpoint.size}`;
    }]);
  }
  const report = await runChecks(steps);
  return { ...report, ...facts, checkpoint };
}

// ---------------------------------------------------------------------------------------
// A whole log (a bundle): signatures, the Merkle tree and commitments, record by record
// ---------------------------------------------------------------------------------------

function checkBundleShape(bundle) {
  if (!isObject(bundle)) fail("a bundle is a JSON object");
  if (bundle.format !== BUNDLE_FORMAT) fail(`format is ${describe(bundle.format)}; this checker knows "${BUNDLE_FORMAT}"`);
  const [prefix, matchId] = splitOrigin(bundle.origin);
  if (bundle.match_id !== matchId) fail(`match_id ${describe(bundle.match_id)} is not the match of the origin`);
  if (typeof bundle.public_key !== "string") fail("public_key is the log's verifier key (text)");
  if (!Array.isArray(bundle.records)) fail("records is a list");
  if (!Array.isArray(bundle.checkpoints) || !bundle.checkpoints.length) fail("checkpoints is a non-empty list");
  let previous = -1;
  bundle.checkpoints.forEach((cp, i) => {
    if (!isObject(cp) || !isWhole(cp.size) || typeof cp.note !== "string") {
      fail(`checkpoints[${i}] is {"size": whole number, "note": signed note}`);
    }
    if (cp.size <= previous) fail(`checkpoints[${i}]: sizes must be strictly ascending`);
    previous = cp.size;
  });
  if (bundle.receipts !== undefined && !Array.isArray(bundle.receipts)) fail("receipts is a list");
  return prefix;
}

// The leaf ranges [lo, hi) of the subtrees on the inclusion path of `index` (lowest first).
function pathRanges(index, size) {
  const ranges = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = split(hi - lo);
    if (index < lo + k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
    }
  }
  return ranges.reverse();
}

function firstUncovered(lo, hi, good) {
  let moved = true;
  let at = lo;
  while (moved && at < hi) {
    moved = false;
    for (const [a, b] of good) {
      if (a <= at && at < b) {
        at = b;
        moved = true;
      }
    }
  }
  return Math.min(at, hi - 1);
}

// Every record's findings; a record is green when it has none.
class Findings {
  constructor(n) {
    this.problems = Array.from({ length: n }, () => []);
    this.notes = Array.from({ length: n }, () => []);
    this.general = []; // findings that name no record (e.g. records cut off the end)
  }

  bad(seq, message) {
    if (seq >= 0 && seq < this.problems.length) this.problems[seq].push(message);
    else this.general.push(message);
  }

  badRange(lo, hi, message) {
    for (let seq = lo; seq < hi && seq < this.problems.length; seq += 1) this.problems[seq].push(message);
  }
}

async function hashLeaves(records, findings, progress) {
  const leaves = new Array(records.length);
  const BATCH = 2048;
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH).map(async (record, j) => {
      const i = start + j;
      try {
        leaves[i] = await leafHash(record);
      } catch (error) {
        if (!(error instanceof VerificationError)) throw error;
        findings.bad(i, `record ${i} cannot be put in canonical JSON: ${error.message}`);
        leaves[i] = await sha256(`unreadable record ${i}`);
      }
    });
    await Promise.all(batch);
    progress(Math.min(start + BATCH, records.length), records.length);
  }
  return leaves;
}

// Checkpoints, in ascending order: each must open with the log key (and the pinned key),
// name the bundle's origin and size, and have the root of the first `size` records. The
// first that fails leaves the records after the previous one unvouched (like the signature
// and merkle checks of replay/verify.py).
async function checkCheckpoints(bundle, keys, tree, findings) {
  const n = tree.levels[0].length;
  const { logKey, keyProblem } = keys;
  // Every note is opened and every root computed at once; then they are read in order.
  const opened = keyProblem ? [] : await inBatches(bundle.checkpoints, async (cp) => {
    try {
      if (cp.size === 0) fail("it is listed at size 0; a bundle's checkpoints have sizes 1 to 2^63-1");
      // A pinned key must be the log key (resolveLogKeys), so one key opens every note.
      const body = await openCheckpoint(cp.note, logKey, bundle.origin);
      if (body.size !== cp.size) fail(`it is listed at size ${cp.size} but signs size ${body.size}`);
      return { body, root: cp.size <= n ? await tree.root(cp.size) : null };
    } catch (error) {
      if (!(error instanceof VerificationError)) throw error;
      return { problem: error.message };
    }
  });
  let vouched = 0;
  let good = 0;
  let failing = null; // {size, kind: "key" | "signature" | "cut" | "root", problem}
  for (const [i, cp] of bundle.checkpoints.entries()) {
    const result = opened[i];
    if (keyProblem) {
      failing = { size: cp.size, kind: "key", problem: keyProblem };
    } else if (result.problem) {
      failing = { size: cp.size, kind: "signature", problem: result.problem };
    } else if (cp.size > n) {
      failing = { size: cp.size, kind: "cut", problem: `records ${n}..${cp.size - 1} were cut off the end` };
    } else if (!bytesEqual(result.root, result.body.rootHash)) {
      failing = { size: cp.size, kind: "root", problem: "the records do not give the signed root" };
    }
    if (failing) break;
    good += 1;
    vouched = cp.size;
  }
  const rest = `the records after ${vouched} are vouched for by no valid checkpoint`;
  if (!failing) {
    if (vouched < n) findings.badRange(vouched, n, `no signed checkpoint covers this record (the last is at size ${vouched})`);
  } else if (failing.kind === "key") {
    findings.badRange(0, n, `no checkpoint can vouch for this record: ${failing.problem}`);
    findings.general.push(failing.problem);
  } else if (failing.kind === "signature") {
    const message = `the checkpoint at size ${failing.size} does not verify (${failing.problem}); ${rest}`;
    findings.badRange(vouched, n, message);
    if (vouched >= n) findings.general.push(message);
  } else if (failing.kind === "cut") {
    const message = `a checkpoint covers ${failing.size} records but the bundle holds ${n}: ${failing.problem}`;
    findings.general.push(message);
    findings.badRange(vouched, n, `${message}; ${rest}`);
  } else {
    const hi = failing.size;
    const where = hi - vouched > 1 ? `a change lies in records ${vouched}..${hi - 1}` : `record ${vouched} differs`;
    findings.badRange(vouched, hi, `${failing.problem} at size ${hi}: ${where}`);
    findings.badRange(hi, n, `not vouched for: the checkpoint at size ${hi} does not match the records; ${rest}`);
  }
  return { total: bundle.checkpoints.length, good, vouched, failing };
}

async function resolveLogKeys(bundle, prefix, trustedKey) {
  let logKey = null;
  let trusted = null;
  let keyProblem = null;
  try {
    logKey = await parseVerifierKey(bundle.public_key);
    if (logKey.name !== prefix) fail(`the log key is named ${describe(logKey.name)}, not after the origin's ${describe(prefix)}`);
    if (trustedKey) {
      trusted = await parseVerifierKey(trustedKey);
      if (trusted.vkey !== logKey.vkey) fail(`the bundle names the key ${logKey.vkey}, not the pinned key ${trusted.vkey}`);
    }
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    keyProblem = error.message;
  }
  return { logKey, trusted, keyProblem };
}

// Every reveal must name its player's latest commitment of the step and open it; an opening
// must name it; a submission of a player with a registered key must carry their signature
// (the key of their latest SeatClaimed, none after a SeatReinvited, before any claim the one
// MatchCreated registered). One pass in log order finds what each record is checked against; the hashing and
// signature checks then run in parallel.
async function checkCommitments(bundle, findings, notes) {
  const latest = new Map(); // "step\nplayer" -> {commitment, seq}
  const jobs = []; // [seq, async check returning a note]
  let keys = {};
  for (const [seq, record] of bundle.records.entries()) {
    const data = isObject(record) ? record.data : null;
    if (!isObject(data)) continue;
    const slot = `${data.step}\n${data.player}`;
    if (record.type === "MatchCreated" && isObject(data.player_keys)) {
      keys = { ...data.player_keys };
    } else if (record.type === "SeatClaimed" && typeof data.player === "string") {
      keys[data.player] = data.public_key ?? undefined; // the key registered with the claim, if any
    } else if (record.type === "SeatReinvited" && typeof data.player === "string") {
      keys[data.player] = undefined; // no key until the seat is claimed again
    } else if (record.type === "SubmissionCommitted") {
      latest.set(slot, { commitment: data.commitment, seq });
      jobs.push([seq, "signature", () => checkSubmissionSignature(bundle.match_id, data, keys[data.player])]);
    } else if (record.type === "OpeningReceived" || record.type === "SubmissionRevealed") {
      const mine = latest.get(slot);
      const kind = record.type === "OpeningReceived" ? "opening" : "reveal";
      jobs.push([seq, kind, () => checkOpening(bundle.match_id, record.type, data, mine)]);
    }
  }
  const counts = { signature: 0, reveal: 0, opening: 0 };
  await inBatches(jobs, async ([seq, kind, check]) => {
    try {
      const note = await check();
      if (note) {
        notes[seq].push(note);
        counts[kind] += 1;
      }
    } catch (error) {
      if (!(error instanceof VerificationError)) throw error;
      findings.bad(seq, error.message);
    }
  });
  return { reveals: counts.reveal, signed: counts.signature };
}

async function checkSubmissionSignature(matchId, data, key) {
  if (key === undefined) {
    if (data.signature !== null && data.signature !== undefined) {
      fail(`${data.player} registered no key, yet the submission carries a signature`);
    }
    return null;
  }
  const raw = typeof key === "string" ? base64ToBytes(key) : new Uint8Array(0);
  if (raw.length !== 32) fail(`${data.player}'s registered key is not base64 of 32 bytes`);
  if (typeof data.signature !== "string") fail(`${data.player} registered a key but this submission is unsigned`);
  const message = submissionMessage(matchId, data.step, data.player, data.commitment);
  if (!(await ed25519Verify(raw, base64ToBytes(data.signature), message))) {
    fail(`${data.player}'s signature on this submission does not verify`);
  }
  return `signed by ${data.player}`;
}

async function checkOpening(matchId, type, data, mine) {
  const what = type === "OpeningReceived" ? "opening" : "reveal";
  if (!mine || data.commitment !== mine.commitment) {
    fail(`the ${what} of ${data.player} in step ${data.step} names a commitment that is not their latest`);
  }
  if (type === "OpeningReceived") return `names ${data.player}'s commitment at seq ${mine.seq}`;
  let opened;
  try {
    opened = await commitment(matchId, data.step, data.player, data.payload, data.salt);
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    fail(`the reveal of ${data.player} in step ${data.step} is malformed: ${error.message}`);
  }
  if (opened !== mine.commitment) {
    fail(`the reveal of ${data.player} in step ${data.step} does not open their commitment (seq ${mine.seq})`);
  }
  return `opens ${data.player}'s commitment at seq ${mine.seq}`;
}

// Each receipt must verify with the pinned key (else the log key), and the bundle must hold
// its record and reproduce its proof hashes and root; where it does not, the first changed
// range not shown unchanged by another receipt is red (replay/verify.py _check_receipts).
async function checkReceipts(bundle, keys, tree, findings) {
  const receipts = bundle.receipts || [];
  const leaves = tree.levels[0];
  const n = leaves.length;
  const key = keys.trusted || keys.logKey;
  const good = [];
  const bad = []; // [lo, hi, receipt, message]
  let verified = 0;
  for (const [i, receipt] of receipts.entries()) {
    const report = await verifyReceipt(receipt, { trustedKey: key ? key.vkey : null });
    if (!report.ok) {
      const failed = report.checks.find((c) => c.status === "fail");
      const seq = isObject(receipt) && isWhole(receipt.leaf_index) ? receipt.leaf_index : -1;
      const withKey = keys.trusted ? "the pinned key" : "the log's key";
      findings.bad(seq, `receipt ${i} does not verify with ${withKey} (${failed.name}): ${failed.detail}`);
      continue;
    }
    if (receipt.match_id !== bundle.match_id) {
      findings.general.push(`receipt ${i} is for match ${receipt.match_id}, not this one`);
      continue;
    }
    const index = receipt.leaf_index;
    const size = receipt.tree_size;
    if (size > n) {
      bad.push([n, size, i, `receipt ${i} covers ${size} records; the bundle holds ${n}: records were cut off`]);
      continue;
    }
    const before = bad.length;
    if (bytesEqual(leaves[index], await leafHash(receipt.record))) good.push([index, index + 1]);
    else bad.push([index, index + 1, i, `record ${index} is not the one receipt ${i} holds: the log was rewritten`]);
    const proof = decodeHashes(receipt.inclusion_proof, "inclusion_proof");
    for (const [j, [lo, hi]] of pathRanges(index, size).entries()) {
      if (bytesEqual(proof[j], await tree.rangeHash(lo, hi))) good.push([lo, hi]);
      else bad.push([lo, hi, i, `records ${lo}..${hi - 1} are not the ones receipt ${i}'s proof covers: the log was rewritten`]);
    }
    if (bytesEqual(await tree.root(size), report.checkpoint.rootHash)) good.push([0, size]);
    if (bad.length === before) verified += 1;
  }
  const worst = new Map(); // receipt -> [first, last, message]
  for (const [lo, hi, i, message] of bad) {
    const first = firstUncovered(lo, hi, good);
    if (!worst.has(i) || first < worst.get(i)[0]) worst.set(i, [first, hi - 1, message]);
  }
  for (const [first, last, message] of worst.values()) {
    if (first >= n) findings.general.push(message);
    findings.badRange(first, last + 1, message);
  }
  return { total: receipts.length, verified };
}

/**
 * Check a bundle's public log in the browser: every checkpoint's signature and root, each
 * reveal against its commitment, players' submission signatures and the bundle's receipts.
 * The rules (order of events, deals, outcomes) are not checked here: `dealerroom verify` does.
 *
 * `trustedKey` pins the host's verifier key; `onProgress(done, total)` reports leaf hashing.
 * Throws VerificationError when the bundle does not have the bundle's shape. Returns
 * {records: [{seq, type, ok, reason}], summary: {ok, records, bad, firstBadSeq, problems,
 * checkpoints, reveals, signed, receipts, text}}; `seq` is the record's position in the log.
 */
export async function verifyLog(bundle, { trustedKey = null, onProgress = () => {} } = {}) {
  const prefix = checkBundleShape(bundle);
  const records = bundle.records;
  const n = records.length;
  const findings = new Findings(n);
  const notes = findings.notes;

  // Records in log order: record i has seq i.
  const misplaced = records.findIndex((r, i) => !isObject(r) || r.seq !== i);
  if (misplaced >= 0) {
    const found = isObject(records[misplaced]) ? records[misplaced].seq : undefined;
    findings.bad(misplaced, `position ${misplaced} holds seq ${describe(found)}: a record is missing, repeated or out of order`);
  }
  const leaves = await hashLeaves(records, findings, onProgress);
  const keys = await resolveLogKeys(bundle, prefix, trustedKey ? String(trustedKey).trim() : null);
  const tree = await Tree.build(leaves);
  const checkpoints = await checkCheckpoints(bundle, keys, tree, findings);
  const { reveals, signed } = await checkCommitments(bundle, findings, notes);
  const receipts = await checkReceipts(bundle, keys, tree, findings);

  const results = records.map((record, seq) => {
    const problems = findings.problems[seq];
    const type = isObject(record) ? String(record.type) : "?";
    if (problems.length) return { seq, type, ok: false, reason: problems.join("; ") };
    const vouch = `in the log signed at size ${checkpoints.vouched}`;
    return { seq, type, ok: true, reason: [vouch, ...notes[seq]].join("; ") };
  });
  const badSeqs = results.filter((r) => !r.ok).map((r) => r.seq);
  const firstBadSeq = badSeqs.length ? badSeqs[0] : findings.general.length ? n : null;
  const ok = firstBadSeq === null;
  const summary = {
    ok,
    records: n,
    bad: badSeqs.length,
    firstBadSeq,
    problems: findings.general,
    checkpoints,
    reveals,
    signed,
    receipts,
    key: keys.logKey ? keys.logKey.vkey : null,
    pinned: Boolean(keys.trusted),
  };
  summary.text = summaryText(summary);
  return { records: results, summary };
}

function summaryText(s) {
  const cps = `${s.checkpoints.good} of ${s.checkpoints.total} signed checkpoint(s) hold`;
  const facts = `${cps}; ${s.reveals} reveal(s) open their commitments; ${s.signed} player signature(s) and ${s.receipts.verified} of ${s.receipts.total} receipt(s) verify`;
  if (s.ok) return `All ${s.records} records check out: ${facts}.`;
  const first = s.firstBadSeq < s.records ? `the first bad record is ${s.firstBadSeq}` : "records are missing at the end";
  const general = s.problems.length ? ` ${s.problems.join("; ")}.` : "";
  return `${s.bad} of ${s.records} records fail; ${first}. ${facts}.${general}`;
}
