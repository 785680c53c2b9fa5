// The match page's "check the log" button: fetch the match's bundle, check it in the browser
// (dealerroom-crypto.js verifyLog and verifyFairness) and colour the timeline rows green or
// red, then list which check each red record fails and why. On load, the fair-play marks
// (verify-marks.js): host-chosen deals labelled, "Check this reveal" links.
//
// The page provides:
//   <button id="verify-log" type="button" data-bundle-url="/api/matches/<id>/bundle">
//   <output id="verify-summary">
//   <tr class="event" data-seq="N"> ... <td class="check"></td> ... </tr>   (one per event)
// and, from the timeline_fairness.html partial (optional):
//   <section id="fairness" data-match-id="<id>">, <input id="verify-key"> (a pinned key),
//   <ol id="verify-problems">

import { verifyLog } from "./dealerroom-crypto.js";
import { verifyFairness } from "./crypto/fairness.js";
import {
  annotateRows, combine, ensureStylesheet, markRows, showMessage, showProblems, showSummary,
} from "./verify-view.js";
import { markFairPlay } from "./verify-marks.js";
import { getJSON } from "./common.js";

async function fetchBundle(url) {
  try {
    return await getJSON(url);
  } catch (error) {
    throw new Error(`the server did not send the log: ${error.message}`);
  }
}

// The list of failing records: the partial's, or one made after the summary.
function problemList(output) {
  let list = document.getElementById("verify-problems");
  if (!list) {
    list = document.createElement("ol");
    list.id = "verify-problems";
    list.className = "problems";
    output.after(list);
  }
  return list;
}

// Bring a record's row into view and give it the focus (it is outlined for a moment).
function showRecord(seq) {
  const row = document.querySelector(`tr.event[data-seq="${seq}"]`);
  if (!row) return;
  row.tabIndex = -1;
  row.scrollIntoView({ block: "center" });
  row.focus({ preventScroll: true });
  row.classList.add("shown");
  setTimeout(() => row.classList.remove("shown"), 2500);
}

async function check(button, output) {
  button.disabled = true;
  const list = problemList(output);
  list.replaceChildren();
  list.hidden = true;
  annotateRows(document, []);
  showMessage(output, "Fetching the public log\u2026");
  try {
    const bundle = await fetchBundle(button.dataset.bundleUrl);
    const pinned = document.getElementById("verify-key");
    showMessage(output, "Checking signatures, the Merkle tree and commitments\u2026");
    const { records, summary } = await verifyLog(bundle, {
      trustedKey: pinned && pinned.value.trim() ? pinned.value.trim() : null,
      onProgress: (done, total) => showMessage(output, `Hashing records: ${done} of ${total}\u2026`),
    });
    showMessage(output, "Recomputing the deals and defaults from the seed\u2026");
    const fairness = await verifyFairness(bundle.records, bundle.match_id);
    const combined = combine(records, fairness);
    markRows(document, combined);
    annotateRows(document, combined);
    showSummary(output, summary, fairness, combined);
    showProblems(list, combined, [...summary.problems, ...fairness.summary.problems], showRecord);
  } catch (error) {
    showMessage(output, `Could not check the log: ${error.message}`, false);
  } finally {
    button.disabled = false;
  }
}

const button = document.getElementById("verify-log");
const output = document.getElementById("verify-summary");
if (button && output) {
  ensureStylesheet();
  button.addEventListener("click", () => check(button, output));
}
const head = document.getElementById("fairness") || document.getElementById("match");
if (head && head.dataset.matchId) markFairPlay(document, head.dataset.matchId);
