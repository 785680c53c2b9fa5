// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): commitments, salts and the bytes a player signs for a submission, as
// domain/commitment.py.

import { bytesToHex, concatBytes, describe, fail, hexToBytes, isWhole, utf8 } from "./bytes.js";
import { canonicalJSON } from "./jcs.js";
import { sha256 } from "./merkle.js";

const COMMIT_TAG = "dealerroom/commit/v1";
const SUBMISSION_TAG = "dealerroom/submission/v1";
const HEX64 = /^[0-9a-f]{64}$/;

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
