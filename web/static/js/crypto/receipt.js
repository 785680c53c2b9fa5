// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): receipts (a record, its inclusion proof and a signed checkpoint, perhaps a
// later one), as replay/receipt.py.

import {
  VerificationError,
  base64ToBytes,
  bytesToBase64,
  describe,
  fail,
  hasExactly,
  isObject,
  isWhole,
} from "./bytes.js";
import { HASH_SIZE, leafHash, verifyConsistency, verifyInclusion } from "./merkle.js";
import { openCheckpoint, parseVerifierKey } from "./note.js";
import { canonicalMatchId } from "./commitment.js";

const RECEIPT_FORMAT = "dealerroom/receipt/v1";
const CONSISTENCY_FORMAT = "dealerroom/consistency/v1";
const RECEIPT_KEYS = [
  "checkpoint", "format", "inclusion_proof", "leaf_index", "match_id", "origin", "public_key",
  "record", "tree_size",
];
const RECORD_KEYS = ["at", "data", "seq", "type"];

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

export function decodeHashes(values, where) {
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
 * commitment, key, root, laterSize, laterCheckpoint (the later checkpoint opened: {origin, size,
 * rootHash})), checkpoint (the receipt's, opened)}.
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
      facts.laterCheckpoint = newer;
      return `the log at size ${newer.size} extends the receipt's checkpoint at size ${checkpoint.size}`;
    }]);
  }
  const report = await runChecks(steps);
  return { ...report, ...facts, checkpoint };
}
