// Part of the in-browser verifier (dealerroom-crypto.js says what the rest checks and against
// which documents; pages import this module directly): fair randomness, byte for byte
// docs/PROTOCOL.md section 2 as domain/fairrand.py implements it.
//
//   seed_hash = SHA-256("dealerroom/seed/v1" || 0x00 || seed)
//   block(i)  = HMAC-SHA256(key = seed, msg = lp("dealerroom/rand/v1") || lp(match_id)
//                           || lp(purpose) || lp(JCS(entropy)) || uint64be(i))
//   stream    = block(0) || block(1) || ...
//
// below(n): k = bit_length(n - 1); read ceil(k / 8) bytes big-endian, keep the low k bits,
// read again while the value is >= n (below(1) is 0 and reads nothing). shuffle: Fisher-Yates
// from the last position down, j = below(i + 1). choice: list[below(len)].
//
// HMAC runs in WebCrypto, which only answers asynchronously, so every draw is awaited.

import { bytesToHex, concatBytes, fail, hexToBytes, utf8 } from "./bytes.js";
import { canonicalJSON } from "./jcs.js";
import { sha256, subtle } from "./merkle.js";

const SEED_SIZE = 32;
const SEED_TAG = "dealerroom/seed/v1";
const RAND_TAG = "dealerroom/rand/v1";
const HEX64 = /^[0-9a-f]{64}$/;

function lp(bytes) {
  const n = bytes.length;
  return concatBytes([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], bytes);
}

function uint64be(value) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

/** The 32 bytes of a seed written as 64 lowercase hex digits; throws otherwise. */
export function seedBytes(seedHex) {
  if (typeof seedHex !== "string" || !HEX64.test(seedHex)) fail("a host seed is 64 lowercase hex digits (32 bytes)");
  const seed = hexToBytes(seedHex);
  if (seed.length !== SEED_SIZE) fail(`a host seed is ${SEED_SIZE} bytes`);
  return seed;
}

/** The published hash of a seed (64 lowercase hex digits), as SeedCommitted.seed_hash. */
export async function seedHash(seedHex) {
  return bytesToHex(await sha256(concatBytes(utf8(SEED_TAG), [0x00], seedBytes(seedHex))));
}

/** A deterministic stream of uniform choices for one purpose of one match (domain/fairrand.py Rng). */
export class Rng {
  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
    this.counter = 0;
    this.buffer = new Uint8Array(0);
  }

  /**
   * The stream for `purpose` (e.g. "deal/3") in `matchId`, from the seed (hex) and the
   * players' entropy ({player: text}, {} when nobody added any).
   */
  static async open(seedHex, matchId, purpose, entropy = {}) {
    const key = await subtle().importKey(
      "raw", seedBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
    );
    const prefix = concatBytes(
      lp(utf8(RAND_TAG)), lp(utf8(String(matchId))), lp(utf8(String(purpose))),
      lp(utf8(canonicalJSON(entropy || {}))),
    );
    return new Rng(key, prefix);
  }

  /** The next `n` bytes of the stream. */
  async read(n) {
    while (this.buffer.length < n) {
      const message = concatBytes(this.prefix, uint64be(this.counter));
      const block = new Uint8Array(await subtle().sign("HMAC", this.key, message));
      this.counter += 1;
      this.buffer = concatBytes(this.buffer, block);
    }
    const out = this.buffer.slice(0, n);
    this.buffer = this.buffer.slice(n);
    return out;
  }

  /** An exactly uniform integer in [0, n) by rejection sampling. */
  async below(n) {
    if (!Number.isSafeInteger(n) || n <= 0) fail("below(n) needs a whole n >= 1");
    if (n === 1) return 0;
    const bits = (n - 1).toString(2).length;
    const size = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    const limit = BigInt(n);
    for (;;) {
      let value = 0n;
      for (const byte of await this.read(size)) value = (value << 8n) | BigInt(byte);
      value &= mask;
      if (value < limit) return Number(value);
    }
  }

  /** Shuffle `items` in place (Fisher-Yates, from the last position down); returns it. */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** A shuffled copy of `items`. */
  async shuffled(items) {
    return this.shuffle([...items]);
  }

  /** One of `items`, uniformly. */
  async choice(items) {
    return items[await this.below(items.length)];
  }
}
