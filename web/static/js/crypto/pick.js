// Part of the in-browser verifier (dealerroom-crypto.js says what the rest checks and against
// which documents; pages import this module directly): what became of the pick a receipt
// commits to. Given the receipt, the later checkpoint that was shown to extend it
// (verifyReceipt with `later`) and the match's public records as a site serves them, the
// records are first shown to be the ones that checkpoint signs (their Merkle root), then
// read for the player's later picks, reveal or default in that step.

import { bytesEqual, isObject } from "./bytes.js";
import { inBatches, leafHash, merkleRoot } from "./merkle.js";
import { commitment } from "./commitment.js";
import { words } from "./fairness.js";

const sameSlot = (data, step, player) => isObject(data) && data.step === step && data.player === player;

/**
 * Whether the pick revealed later is the one `receipt` commits to. `records`: the match's
 * public records (from seq 0); `later`: the later checkpoint, opened ({size, rootHash}).
 * Returns {ok: true (it is), false (it is not, or the records are not the signed ones) or
 * null (nothing to compare yet), seq (the record that says so, if any), text}.
 */
export async function revealedPick(receipt, records, later) {
  const size = later.size;
  if (!Array.isArray(records) || records.length < size) {
    const got = Array.isArray(records) ? records.length : 0;
    return { ok: false, text: `the site sent ${got} records, but its signed checkpoint covers ${size}` };
  }
  const leaves = await inBatches(records.slice(0, size), (record) => leafHash(record));
  if (!bytesEqual(await merkleRoot(leaves), later.rootHash)) {
    return { ok: false, text: `the records this site sent are not the ones its checkpoint at size ${size} signs` };
  }
  const { type, data } = receipt.record;
  if (type !== "SubmissionCommitted") {
    return { ok: null, text: `this receipt is for a ${type} record, not a pick: it has nothing to reveal` };
  }
  const { step, player } = data;
  const mine = data.commitment;
  let standing = { commitment: mine, seq: receipt.leaf_index };
  for (const record of records.slice(receipt.leaf_index + 1, size)) {
    const other = record.data;
    if (!sameSlot(other, step, player)) continue;
    if (record.type === "SubmissionCommitted") {
      standing = { commitment: other.commitment, seq: record.seq };
    } else if (record.type === "DefaultApplied") {
      return {
        ok: null, seq: record.seq,
        text: `no pick of ${player} was revealed in step ${step}: record ${record.seq} applied the default (${words(other.payload)}) because ${other.reason === "not-revealed" ? "the opening never came" : "no pick stood"}`,
      };
    } else if (record.type === "SubmissionRevealed") {
      return readReveal(receipt, record, mine, standing);
    }
  }
  const replaced = standing.commitment !== mine ? ` ${player} replaced this pick in record ${standing.seq}.` : "";
  return {
    ok: null,
    text: `${player}'s pick in step ${step} is not revealed yet in the log of ${size} records; the game reveals it when the step resolves or when the match ends.${replaced}`,
  };
}

async function readReveal(receipt, record, mine, standing) {
  const { step, player, payload, salt } = record.data;
  let opened = null;
  try {
    opened = await commitment(receipt.match_id, step, player, payload, salt);
  } catch {
    opened = null;
  }
  const pick = words(payload);
  if (opened === mine) {
    return { ok: true, seq: record.seq, text: `the pick revealed in record ${record.seq} (${pick}) opens this receipt's commitment: it is the pick you committed to` };
  }
  if (standing.commitment !== mine && opened === standing.commitment) {
    return {
      ok: null, seq: record.seq,
      text: `${player} replaced this pick in record ${standing.seq}; the pick revealed in record ${record.seq} (${pick}) is that later one, so this receipt's pick did not count`,
    };
  }
  return {
    ok: false, seq: record.seq,
    text: `the pick revealed in record ${record.seq} (${pick}) does not open this receipt's commitment${standing.commitment === mine ? ", and no later pick replaced it: it is not the pick you committed to" : ""}`,
  };
}
