// The match page's "check the log" button: fetch the match's bundle, check it in the browser
// (dealerroom-crypto.js verifyLog) and colour the timeline rows green or red.
//
// The page provides:
//   <button id="verify-log" type="button" data-bundle-url="/api/matches/<id>/bundle">
//   <output id="verify-summary">
//   <tr class="event" data-seq="N"> ... <td class="check"></td> ... </tr>   (one per event)

import { verifyLog } from "./dealerroom-crypto.js";
import { ensureStylesheet, markRows, showMessage, showSummary } from "./verify-view.js";

async function fetchBundle(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const reason = body && typeof body.error === "string" ? body.error : `HTTP ${response.status}`;
    throw new Error(`the server did not send the log: ${reason}`);
  }
  if (body === null) throw new Error("the server's answer is not JSON");
  return body;
}

async function check(button, output) {
  button.disabled = true;
  showMessage(output, "Fetching the public log\u2026");
  try {
    const bundle = await fetchBundle(button.dataset.bundleUrl);
    showMessage(output, "Checking signatures, the Merkle tree and commitments\u2026");
    const { records, summary } = await verifyLog(bundle, {
      onProgress: (done, total) => showMessage(output, `Hashing records: ${done} of ${total}\u2026`),
    });
    markRows(document, records);
    showSummary(output, summary);
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
