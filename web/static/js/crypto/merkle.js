// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): SHA-256 (WebCrypto), leaf and node hashes, and the RFC 6962 / 9162 tree and
// its inclusion and consistency proofs, as domain/merkle.py.

import { ENCODER, bytesEqual, concatBytes, describe, fail, isWhole, utf8 } from "./bytes.js";
import { canonicalJSON } from "./jcs.js";

export const HASH_SIZE = 32;

export function subtle() {
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
export function split(n) {
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
export async function inBatches(items, job, size = 1024) {
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
export class Tree {
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
