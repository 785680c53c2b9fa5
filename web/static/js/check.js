// The checker page (/check): a commitment, a receipt file or a whole bundle file, checked in
// the browser. Nothing the user enters or drops leaves the page.

import { commitment, verifyLog, verifyReceipt } from "./dealerroom-crypto.js";
import { markRows, setState, showMessage, showSummary } from "./verify-view.js";

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

const receiptState = { receipt: null, later: null };

async function showReceipt() {
  const summary = $("r-summary");
  const list = $("r-checks");
  list.replaceChildren();
  if (!receiptState.receipt) return;
  const raw = receiptState.receipt;
  // A file may hold the receipt itself or the service's answer that carries it.
  const receipt = raw && raw.format === undefined && raw.receipt ? raw.receipt : raw;
  showMessage(summary, "Checking\u2026");
  const report = await verifyReceipt(receipt, {
    trustedKey: $("r-key").value.trim() || null,
    later: receiptState.later,
  });
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
    const later = report.laterSize ? `, still in the log at size ${report.laterSize}` : "";
    showMessage(summary, `The receipt holds:${who} is record ${report.leafIndex} of the log signed at size ${report.treeSize}${later}.`, true);
  } else {
    const failed = report.checks.find((c) => c.status === "fail");
    showMessage(summary, `The receipt does not hold: ${failed.name} fails.`, false);
  }
}

function loadReceiptFile(key) {
  return async (file) => {
    try {
      receiptState[key] = await readJSON(file, key === "receipt" ? "receipt" : "later checkpoint");
      await showReceipt();
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

async function showBundle() {
  const summary = $("b-summary");
  const table = $("b-table");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  table.hidden = true;
  if (!bundleFile) return;
  try {
    const bundle = await readJSON(bundleFile, "bundle");
    showMessage(summary, "Checking\u2026");
    const { records, summary: result } = await verifyLog(bundle, {
      trustedKey: $("b-key").value.trim() || null,
      onProgress: (done, total) => showMessage(summary, `Hashing records: ${done} of ${total}\u2026`),
    });
    body.append(...bundle.records.map(eventRow));
    markRows(body, records);
    table.hidden = false;
    showSummary(summary, result);
  } catch (error) {
    showMessage(summary, `Cannot check this file: ${error.message}`, false);
  }
}

// ---------------------------------------------------------------------------------------

$("commitment-form").addEventListener("submit", checkCommitment);
acceptFiles($("r-drop"), $("r-file"), loadReceiptFile("receipt"));
acceptFiles($("r-later-drop"), $("r-later"), loadReceiptFile("later"));
$("r-key").addEventListener("change", () => showReceipt());
acceptFiles($("b-drop"), $("b-file"), (file) => {
  bundleFile = file;
  return showBundle();
});
$("b-key").addEventListener("change", () => showBundle());
for (const form of document.querySelectorAll("form.files")) {
  form.addEventListener("submit", (event) => event.preventDefault());
}
setState($("c-result"), null);
document.body.dataset.checkerReady = "true";
