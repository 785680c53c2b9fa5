// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): a whole log (a bundle), record by record: checkpoint signatures, the Merkle
// tree, commitments, submission signatures and receipts, as the matching checks of
// replay/verify.py.

import {
  VerificationError,
  base64ToBytes,
  bytesEqual,
  describe,
  fail,
  isObject,
  isWhole,
} from "./bytes.js";
import { Tree, inBatches, leafHash, sha256, split } from "./merkle.js";
import { ed25519Verify, openCheckpoint, parseVerifierKey } from "./note.js";
import { commitment, submissionMessage } from "./commitment.js";
import { decodeHashes, splitOrigin, verifyReceipt } from "./receipt.js";

const BUNDLE_FORMAT = "dealerroom/bundle/v1";

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

/** The checks of a log, as a person reads them next to a record that fails one. */
export const LOG_CHECKS = {
  log: "the signed log",
  form: "the record's form",
  order: "the order of records",
  commitment: "the commitment",
  signature: "the player's signature",
  receipt: "a receipt",
};

// Every record's findings; a record is green when it has none. Each problem names its check
// (a key of LOG_CHECKS).
class Findings {
  constructor(n) {
    this.problems = Array.from({ length: n }, () => []);
    this.checks = Array.from({ length: n }, () => []);
    this.notes = Array.from({ length: n }, () => []);
    this.general = []; // findings that name no record (e.g. records cut off the end)
  }

  bad(seq, message, check) {
    if (seq >= 0 && seq < this.problems.length) {
      this.problems[seq].push(message);
      this.checks[seq].push(check);
    } else this.general.push(message);
  }

  badRange(lo, hi, message, check = "log") {
    for (let seq = lo; seq < hi && seq < this.problems.length; seq += 1) this.bad(seq, message, check);
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
        findings.bad(i, `record ${i} cannot be put in canonical JSON: ${error.message}`, "form");
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
      findings.bad(seq, error.message, kind === "signature" ? "signature" : "commitment");
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
      findings.bad(seq, `receipt ${i} does not verify with ${withKey} (${failed.name}): ${failed.detail}`, "receipt");
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
    findings.badRange(first, last + 1, message, "receipt");
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
 * {records: [{seq, type, ok, reason, failed (when not ok): [{check (a key of LOG_CHECKS), text}]}], summary: {ok, records, bad, firstBadSeq, problems,
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
    findings.bad(misplaced, `position ${misplaced} holds seq ${describe(found)}: a record is missing, repeated or out of order`, "order");
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
    if (problems.length) {
      const failed = problems.map((text, i) => ({ check: findings.checks[seq][i], text }));
      return { seq, type, ok: false, reason: problems.join("; "), failed };
    }
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

/** The one-paragraph verdict of a verifyLog summary (or of one adjusted for more checks). */
export function summaryText(s) {
  const cps = `${s.checkpoints.good} of ${s.checkpoints.total} signed checkpoint(s) hold`;
  const facts = `${cps}; ${s.reveals} reveal(s) open their commitments; ${s.signed} player signature(s) and ${s.receipts.verified} of ${s.receipts.total} receipt(s) verify`;
  if (s.ok) return `All ${s.records} records check out: ${facts}.`;
  const first = s.firstBadSeq < s.records ? `the first bad record is ${s.firstBadSeq}` : "records are missing at the end";
  const general = s.problems.length ? ` ${s.problems.join("; ")}.` : "";
  return `${s.bad} of ${s.records} records fail; ${first}. ${facts}.${general}`;
}
