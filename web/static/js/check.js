// The checker page (/check): a commitment, a receipt file or a whole bundle file, checked in
// the browser. Nothing the user enters or drops leaves the page.

import { commitment, verifyLog, verifyReceipt } from "./dealerroom-crypto.js";
import { verifyFairness } from "./crypto/fairness.js";
import { revealedPick } from "./crypto/pick.js";
import {
  combine, markRows, setState, showMessage, showProblems, showSummary,
} from "./verify-view.js";
import { enableCopy, getJSON } from "./common.js";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------
// (a) A commitment: match id, step, player, payload and salt against an expected commitment
// ---------------------------------------------------------------------------------------

async function checkCommitment(event) {
  event.preventDefault();
  const result = $("c-result");
  const computed = $("c-computed");
  computed.textContent = "";
  try {
    const stepText = $("c-step").value.trim();
    const step = Number(stepText);
    if (!/^\d+$/.test(stepText) || !Number.isSafeInteger(step)) throw new Error("the step is a whole number");
    let payload;
    try {
      payload = JSON.parse($("c-payload").value);
    } catch (error) {
      throw new Error(`the payload is not JSON (${error.message})`);
    }
    const salt = $("c-salt").value.trim().toLowerCase();
    const mine = await commitment($("c-match").value, step, $("c-player").value, payload, salt);
    computed.textContent = mine;
    const expected = $("c-expected").value.trim().toLowerCase();
    if (!expected) {
      showMessage(result, "computed (enter the expected commitment to compare)");
    } else if (expected === mine) {
      showMessage(result, "match: this payload and salt open the commitment", true);
    } else {
      showMessage(result, "no match: this payload and salt do not open the commitment", false);
    }
  } catch (error) {
    showMessage(result, `cannot compute: ${error.message}`, false);
  }
}

// ---------------------------------------------------------------------------------------
// Files: chosen with the input or dropped on its zone
// ---------------------------------------------------------------------------------------

async function readJSON(file, what) {
  let text;
  try {
    text = await file.text();
  } catch (error) {
    throw new Error(`cannot read ${file.name}: ${error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file.name} is not a JSON ${what} (${error.message})`);
  }
}

// Call `onFile(file)` when a file is chosen in `input` or dropped on `zone`.
function acceptFiles(zone, input, onFile) {
  input.addEventListener("change", () => {
    if (input.files.length) onFile(input.files[0]);
  });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    if (event.dataTransfer.files.length) onFile(event.dataTransfer.files[0]);
  });
}

// ---------------------------------------------------------------------------------------
// (b) A receipt, with an optional pinned key and an optional later checkpoint
// ---------------------------------------------------------------------------------------

// `later`: a later checkpoint file; `fetched` and `records`: what this site sent for the
// receipt's match (GET /api/matches/<id>/checkpoint?from=SIZE and .../records).
const receiptState = { receipt: null, later: null, fetched: null, records: null };

// A file may hold the receipt itself or the service's answer that carries it.
function unwrap(raw) {
  return raw && raw.format === undefined && raw.receipt ? raw.receipt : raw;
}

function siteKeyName() {
  const line = $("site-key-line");
  return line ? String(line.dataset.key || "").split("+")[0] : "";
}

// Whether the receipt names a match of this site (its checkpoints carry this site's key name).
function fromThisSite(receipt) {
  const name = siteKeyName();
  return Boolean(name) && receipt && typeof receipt.origin === "string" && receipt.origin.startsWith(`${name}/match/`);
}

async function showPick(report, receipt) {
  const out = $("r-pick");
  out.hidden = true;
  if (!report.ok || !report.laterCheckpoint || !receiptState.records) return;
  const answer = await revealedPick(receipt, receiptState.records, report.laterCheckpoint);
  showMessage(out, `What became of this pick: ${answer.text}.`, answer.ok);
  out.hidden = false;
}

async function showReceipt() {
  const summary = $("r-summary");
  const list = $("r-checks");
  list.replaceChildren();
  $("r-pick").hidden = true;
  if (!receiptState.receipt) return;
  const receipt = unwrap(receiptState.receipt);
  const later = receiptState.later || receiptState.fetched;
  $("r-fetch").hidden = Boolean(receiptState.later) || !receipt || typeof receipt.match_id !== "string";
  showMessage(summary, "Checking\u2026");
  const report = await verifyReceipt(receipt, { trustedKey: $("r-key").value.trim() || null, later });
  for (const check of report.checks) {
    const item = document.createElement("li");
    item.className = check.status;
    item.dataset.check = check.name;
    const name = document.createElement("strong");
    name.textContent = `${check.name}: ${check.status}`;
    item.append(name, ` \u2014 ${check.detail}`);
    list.append(item);
  }
  if (report.ok) {
    const who = report.player === undefined ? "" : ` ${report.player}'s submission in step ${report.step}`;
    const source = receiptState.later ? "" : receiptState.fetched ? " (this site's latest checkpoint, fetched just now)" : "";
    const stillThere = report.laterSize ? `, still in the log at size ${report.laterSize}${source}` : "";
    showMessage(summary, `The receipt holds:${who} is record ${report.leafIndex} of the log signed at size ${report.treeSize}${stillThere}.`, true);
    await showPick(report, receipt);
  } else {
    const failed = report.checks.find((c) => c.status === "fail");
    showMessage(summary, `The receipt does not hold: ${failed.name} fails.`, false);
  }
}

/** Fetch the receipt's match's latest checkpoint, its consistency proof and records from this site. */
async function fetchFromSite() {
  const receipt = unwrap(receiptState.receipt);
  const note = $("r-site");
  if (!receipt || typeof receipt.match_id !== "string" || !Number.isSafeInteger(receipt.tree_size)) return;
  const base = `/api/matches/${encodeURIComponent(receipt.match_id)}`;
  showMessage(note, "Fetching this site's latest checkpoint and its consistency proof\u2026");
  note.hidden = false;
  try {
    receiptState.fetched = await getJSON(`${base}/checkpoint?from=${receipt.tree_size}`);
    receiptState.records = await getJSON(`${base}/records`);
    showMessage(note, `Fetched this site's latest checkpoint of match ${receipt.match_id}, its proof that it extends the receipt's, and the match's public records.`);
  } catch (error) {
    receiptState.fetched = null;
    receiptState.records = null;
    showMessage(note, `This site could not give the latest checkpoint of match ${receipt.match_id}: ${error.message}. Drop a later checkpoint file instead.`, false);
  }
  await showReceipt();
}

function loadReceiptFile(key) {
  return async (file) => {
    try {
      receiptState[key] = await readJSON(file, key === "receipt" ? "receipt" : "later checkpoint");
      if (key === "receipt") {
        receiptState.fetched = null;
        receiptState.records = null;
        $("r-site").hidden = true;
      }
      await showReceipt();
      if (key === "receipt" && !receiptState.later && fromThisSite(unwrap(receiptState.receipt))) await fetchFromSite();
    } catch (error) {
      receiptState[key] = null;
      $("r-checks").replaceChildren();
      showMessage($("r-summary"), error.message, false);
    }
  };
}

// ---------------------------------------------------------------------------------------
// (c) A bundle: the per-event table, as on the match page
// ---------------------------------------------------------------------------------------

let bundleFile = null;

function eventRow(record, seq) {
  const row = document.createElement("tr");
  row.className = "event";
  row.dataset.seq = String(seq);
  const data = record && typeof record.data === "object" && record.data ? record.data : {};
  for (const text of [String(seq), String(record && record.type), String(data.actor ?? "")]) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  const check = document.createElement("td");
  check.className = "check";
  row.append(check);
  return row;
}

function showBundleRow(seq) {
  const row = document.querySelector(`#b-table tr.event[data-seq="${seq}"]`);
  if (!row) return;
  row.tabIndex = -1;
  row.scrollIntoView({ block: "center" });
  row.focus({ preventScroll: true });
}

async function showBundle() {
  const summary = $("b-summary");
  const table = $("b-table");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  table.hidden = true;
  $("b-problems").replaceChildren();
  $("b-problems").hidden = true;
  if (!bundleFile) return;
  try {
    const bundle = await readJSON(bundleFile, "bundle");
    showMessage(summary, "Checking\u2026");
    const { records, summary: result } = await verifyLog(bundle, {
      trustedKey: $("b-key").value.trim() || null,
      onProgress: (done, total) => showMessage(summary, `Hashing records: ${done} of ${total}\u2026`),
    });
    const fairness = await verifyFairness(bundle.records, bundle.match_id);
    const combined = combine(records, fairness);
    body.append(...bundle.records.map(eventRow));
    markRows(body, combined);
    table.hidden = false;
    showSummary(summary, result, fairness, combined);
    showProblems($("b-problems"), combined, [...result.problems, ...fairness.summary.problems], showBundleRow);
  } catch (error) {
    showMessage(summary, `Cannot check this file: ${error.message}`, false);
  }
}

/**
 * A "Check it" link: `#match=…&step=…&player=…&commitment=…` (public facts, in the fragment,
 * which is never sent). A dealer room's link leaves the pick and salt to this browser's own
 * storage (when it sealed the pick) or to the player; the match page's "Check this reveal"
 * link also carries `payload`, `salt` and `record` of a public reveal.
 */
function fillFromLink() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const match = params.get("match");
  if (!match) return;
  const step = params.get("step") || "";
  const player = params.get("player") || "";
  $("c-match").value = match;
  $("c-step").value = step;
  $("c-player").value = player;
  $("c-expected").value = params.get("commitment") || "";
  const payload = params.get("payload");
  const salt = params.get("salt");
  if (payload !== null && salt) {
    $("c-payload").value = payload;
    $("c-salt").value = salt;
    const record = params.get("record");
    const where = record ? `record ${record}` : "the log";
    const source = $("c-source");
    source.textContent = `Filled in from the public reveal of ${player} in step ${step} (${where} of match ${match}). `
      + "Your browser computes the commitment from this pick and salt and compares it with the one sealed before anyone saw the others' picks.";
    source.hidden = false;
    $("commitment-form").requestSubmit();
    $("commitment-check").scrollIntoView();
    return;
  }
  let sent = null;
  try {
    sent = JSON.parse(localStorage.getItem(`dealerroom:sent:${match}:${player}:${step}`));
  } catch (error) {
    sent = null;
  }
  if (sent && sent.payload && sent.salt && sent.commitment === params.get("commitment")) {
    $("c-payload").value = sent.payload;
    $("c-salt").value = sent.salt;
    $("commitment-form").requestSubmit();
  }
  $("commitment-check").scrollIntoView();
}

// ---------------------------------------------------------------------------------------

$("commitment-form").addEventListener("submit", checkCommitment);
acceptFiles($("r-drop"), $("r-file"), loadReceiptFile("receipt"));
acceptFiles($("r-later-drop"), $("r-later"), loadReceiptFile("later"));
$("r-key").addEventListener("change", () => showReceipt());
$("r-fetch").addEventListener("click", () => fetchFromSite());
acceptFiles($("b-drop"), $("b-file"), (file) => {
  bundleFile = file;
  return showBundle();
});
$("b-key").addEventListener("change", () => showBundle());
for (const form of document.querySelectorAll("form.files")) {
  form.addEventListener("submit", (event) => event.preventDefault());
}
setState($("c-result"), null);
enableCopy(document.querySelector(".checker"));
fillFromLink();
document.body.dataset.checkerReady = "true";
