// Showing verification results on a page: shared by the match page (verify-log.js) and the
// checker page (check.js). Classes only, no inline styles (the pages run under a strict CSP);
// the colours are in /static/verify.css.

/** What the browser checks, said with every result (the rules need dealerroom verify). */
export const SCOPE =
  "The browser checks signatures, the Merkle log and commitments only; "
  + "the command dealerroom verify checks the rules too (order of events, deals, outcomes).";

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
 * Colour the rows `tr.event[data-seq]` under `root` by the results of verifyLog: class ok or
 * bad, ✓ or ✗ in their `td.check` with the reason as its title. A row whose event is not in
 * the log is bad. Returns how many rows were marked.
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
    }
    row.title = result.reason;
  }
  return rows.length;
}

/** Write a verifyLog summary (and the scope of the check) into an element. */
export function showSummary(element, summary) {
  element.textContent = `${summary.text} ${SCOPE}`;
  setState(element, summary.ok);
}

/** Write a message that is not a verdict (progress, or why nothing could be checked). */
export function showMessage(element, text, ok = null) {
  element.textContent = text;
  setState(element, ok);
}
