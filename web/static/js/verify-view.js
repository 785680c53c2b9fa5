// Showing verification results on a page: shared by the match page (verify-log.js) and the
// checker page (check.js). Classes only, no inline styles (the pages run under a strict CSP);
// the colours are in /static/verify.css.

import { LOG_CHECKS, summaryText } from "./crypto/log.js";
import { CHECKS } from "./crypto/fairness.js";

/** What the browser checks, said with every result (the outcomes need dealerroom verify). */
export const SCOPE =
  "Your browser checks the signatures, the Merkle log, every commitment, the seed, every deal "
  + "from the seed and every default; the command dealerroom verify also replays every outcome "
  + "by the rules.";

const NAMES = { ...LOG_CHECKS, ...CHECKS };

const TYPES = {
  MatchCreated: "the match created",
  SeedCommitted: "the seed committed",
  SeatClaimed: "a seat claimed",
  SeatReinvited: "a seat re-invited",
  PlayerJoined: "a player joined",
  StepOpened: "a step opened",
  SubmissionCommitted: "a sealed pick",
  StepSealed: "a step sealed",
  DefaultApplied: "a default pick",
  OpeningReceived: "an opening",
  SubmissionRevealed: "a revealed pick",
  DecisionRequested: "a decision asked for",
  DecisionMade: "a decision",
  StepResolved: "a step resolved",
  MatchFinished: "the match finished",
  MatchEnded: "the match ended early",
  DealRevealed: "a deal disclosed",
  SeedRevealed: "the seed revealed",
};

/** A record type in words ("a revealed pick"). */
export function typeWords(type) {
  return TYPES[type] || String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Add /static/verify.css to the page unless it is linked already. */
export function ensureStylesheet(doc = document) {
  const href = new URL("../verify.css", import.meta.url).href;
  const linked = Array.from(doc.querySelectorAll('link[rel="stylesheet"]')).some((l) => l.href === href);
  if (!linked) {
    const link = doc.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    doc.head.append(link);
  }
}

/** Set an element's result class: "ok", "bad" or neither (null: under way). */
export function setState(element, ok) {
  element.classList.toggle("ok", ok === true);
  element.classList.toggle("bad", ok === false);
}

/**
 * The results of verifyLog and verifyFairness together, one per record: {seq, type, ok,
 * reason, failed: [{check (in words), text}]}. A record is bad when either check finds a
 * problem; `reason` lists the problems (the log's first, as verifyLog words them), or else
 * what was checked.
 */
export function combine(logRecords, fairness = null) {
  return logRecords.map((result) => {
    const found = (fairness && fairness.bySeq.get(result.seq)) || [];
    const fairFailed = found.filter((f) => f.status === "fail").map((f) => ({ check: NAMES[f.check] || f.check, text: f.text }));
    const logFailed = (result.failed || []).map((f) => ({ check: NAMES[f.check] || f.check, text: f.text }));
    const failed = [...logFailed, ...fairFailed];
    if (failed.length) {
      const reason = [result.ok ? null : result.reason, ...fairFailed.map((f) => f.text)].filter(Boolean).join("; ");
      return { ...result, ok: false, reason, failed };
    }
    const notes = found.map((f) => f.text);
    return { ...result, reason: [result.reason, ...notes].filter(Boolean).join("; "), failed };
  });
}

/**
 * Colour the rows `tr.event[data-seq]` under `root` by the results of verifyLog (or combine):
 * class ok or bad, ✓ or ✗ in their `td.check` with the reason as its title. A row whose event
 * is not in the log is bad. Returns how many rows were marked.
 */
export function markRows(root, results) {
  const bySeq = new Map(results.map((r) => [String(r.seq), r]));
  const rows = root.querySelectorAll("tr.event[data-seq]");
  for (const row of rows) {
    const result = bySeq.get(row.dataset.seq) || {
      ok: false, reason: "this event is not in the signed log the server sent",
    };
    setState(row, result.ok);
    const cell = row.querySelector("td.check");
    if (cell) {
      cell.textContent = result.ok ? "\u2713" : "\u2717";
      cell.title = result.reason;
      cell.setAttribute("aria-label", `${result.ok ? "checked" : "fails"}: ${result.reason}`);
    }
    row.title = result.reason;
  }
  return rows.length;
}

// Runs of consecutive bad records that fail the same way: [{first, last, type, failed}].
function runs(results) {
  const out = [];
  for (const r of results) {
    if (r.ok) continue;
    const key = JSON.stringify(r.failed || [{ check: "", text: r.reason }]);
    const prev = out[out.length - 1];
    if (prev && prev.key === key && prev.last === r.seq - 1) prev.last = r.seq;
    else out.push({ key, first: r.seq, last: r.seq, type: r.type, failed: r.failed && r.failed.length ? r.failed : [{ check: "", text: r.reason }] });
  }
  return out;
}

// The cell that says what happened in a row (the one before the check column otherwise).
function textCell(row) {
  const check = row.querySelector("td.check");
  return row.querySelector("td.text") || (check && check.previousElementSibling);
}

/**
 * Say in the log itself why records fail: under the first record of each run of records
 * failing alike, which check fails and why (and how many records after it fail the same
 * way). A record said to be dealt from the seed whose deal is not the seed's says so too.
 */
export function annotateRows(root, results) {
  for (const old of root.querySelectorAll(".fail-why")) old.remove();
  for (const mark of root.querySelectorAll(".fair-mark.not-seed")) {
    mark.classList.replace("not-seed", "seed-dealt");
    mark.textContent = mark.dataset.text || mark.textContent;
  }
  for (const run of runs(results)) {
    const row = root.querySelector(`tr.event[data-seq="${run.first}"]`);
    const cell = row && textCell(row);
    if (!cell) continue;
    const why = document.createElement("span");
    why.className = "fail-why";
    const more = run.last > run.first ? ` (and the ${run.last - run.first} records after it, for the same reason)` : "";
    why.textContent = `\u2717 ${run.failed.map((f) => (f.check ? `${f.check} fails: ${f.text}` : f.text)).join("; ")}${more}`;
    cell.append(why);
  }
  for (const result of results) {
    if (!(result.failed || []).some((f) => f.check === CHECKS.deal)) continue;
    const mark = root.querySelector(`tr.event[data-seq="${result.seq}"] .fair-mark.seed-dealt`);
    if (!mark) continue;
    mark.dataset.text = mark.textContent;
    mark.classList.replace("seed-dealt", "not-seed");
    mark.textContent = "Not the deal the seed gives";
  }
}

/**
 * List, in `element` (an <ol>), which check each failing record fails and why: one item per
 * run of records failing alike, then the problems that name no record. `onShow(seq)`, when
 * given, adds a button that shows the record.
 */
export function showProblems(element, results, general = [], onShow = null) {
  element.replaceChildren();
  for (const run of runs(results)) {
    const item = document.createElement("li");
    item.dataset.seq = String(run.first);
    const where = document.createElement("strong");
    where.textContent = run.first === run.last
      ? `Record ${run.first} (${typeWords(run.type)})`
      : `Records ${run.first} to ${run.last}`;
    item.append(where);
    for (const { check, text } of run.failed) {
      const line = document.createElement("span");
      line.className = "why";
      line.textContent = check ? `${check} fails: ${text}` : text;
      item.append(line);
    }
    if (onShow) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "show-record";
      button.textContent = run.first === run.last ? "Show this record" : `Show record ${run.first}`;
      button.addEventListener("click", () => onShow(run.first));
      item.append(button);
    }
    element.append(item);
  }
  for (const text of general) {
    const item = document.createElement("li");
    item.textContent = text;
    element.append(item);
  }
  element.hidden = !element.children.length;
}

/**
 * Write a verifyLog summary into an element; with verifyFairness's result and the combined
 * records (combine), the verdict counts the records either check fails.
 */
export function showSummary(element, summary, fairness = null, combined = null) {
  let head = summary.text;
  let ok = summary.ok;
  if (fairness && combined) {
    const bad = combined.filter((r) => !r.ok).map((r) => r.seq);
    ok = summary.ok && fairness.summary.ok && !bad.length;
    if (bad.length) head = summaryText({ ...summary, ok: false, bad: bad.length, firstBadSeq: bad[0] });
    head = `${head} ${fairness.summary.text}`;
  }
  element.textContent = `${head} ${SCOPE}`;
  setState(element, ok);
}

/** Write a message that is not a verdict (progress, or why nothing could be checked). */
export function showMessage(element, text, ok = null) {
  element.textContent = text;
  setState(element, ok);
}
