// The match page's fair-play marks, there before any check is run: every step dealt by the
// host (not from the seed) is labelled loudly in its row and its step's heading, every step
// dealt from the seed says so, and every public reveal gets a "Check this reveal" link that
// opens /check filled in. Rows that arrive later (a live match) are marked as they appear.
//
// The page provides `tr.event[data-seq]` rows (one per record, a `td.check` last) and,
// optionally, `tbody.group#step-N tr.group-head th` headings.

const LOUD = "Dealt by the host, not from the seed";
const QUIET = "Dealt from the seed";

/** The /check link that opens a public reveal: its commitment, payload and salt. */
export function checkLink(matchId, record) {
  const data = record.data;
  const params = new URLSearchParams({
    match: matchId,
    step: String(data.step),
    player: String(data.player),
    commitment: String(data.commitment),
    payload: JSON.stringify(data.payload),
    salt: String(data.salt),
    record: String(record.seq),
  });
  return `/check#${params}`;
}

// The cell a mark goes in: `td.<name>` when the row has one, else the one before the check
// column, else the last.
function cellFor(row, name) {
  const named = row.querySelector(`td.${name}`);
  if (named) return named;
  const check = row.querySelector("td.check");
  const before = check && check.previousElementSibling;
  return before || row.querySelector("td:last-of-type");
}

// The heading of a step's group of rows.
function stepHeading(doc, step) {
  const n = CSS.escape(String(step));
  const head = doc.querySelector(`tbody.group[data-step="${n}"] tr.group-head th, tbody.group#step-${n} tr.group-head th`);
  return head && (head.querySelector(".group-title") || head);
}

function badge(doc, text, className) {
  const mark = doc.createElement("strong");
  mark.className = `fair-mark ${className}`;
  mark.textContent = text;
  return mark;
}

function markRow(doc, row, record, matchId) {
  if (row.dataset.fairMarked) return;
  row.dataset.fairMarked = "yes";
  const data = record.data;
  if (record.type === "StepOpened" && data.deal_source === "explicit") {
    row.classList.add("host-dealt");
    cellFor(row, "text").append(" ", badge(doc, LOUD, "host-dealt"));
    const head = stepHeading(doc, data.step);
    if (head && !head.querySelector(".fair-mark")) head.append(" ", badge(doc, LOUD, "host-dealt"));
  } else if (record.type === "StepOpened" && data.deal_source === "seed") {
    cellFor(row, "text").append(" ", badge(doc, QUIET, "seed-dealt"));
  } else if (record.type === "SubmissionRevealed" && typeof data.salt === "string") {
    const link = doc.createElement("a");
    link.className = "check-this";
    link.href = checkLink(matchId, record);
    link.textContent = "Check this reveal";
    link.setAttribute("aria-label", `Check ${data.player}'s reveal in step ${data.step} yourself`);
    // A click on a row may step the replay to it; this link goes to the checker instead.
    link.addEventListener("click", (event) => event.stopPropagation());
    cellFor(row, "proof").append(" ", link);
  }
}

async function fetchRecords(matchId, from) {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/records?from=${from}`, {
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

const MARKED_TYPES = new Set(["StepOpened", "SubmissionRevealed"]);

/**
 * Mark the rows under `doc` for the match `matchId` and keep marking rows that appear later.
 * Returns a promise that settles once the rows there now are marked.
 */
export async function markFairPlay(doc, matchId) {
  const wanted = new Map(); // seq -> record that gets a mark
  let known = 0;
  let busy = null;
  const apply = () => {
    for (const row of doc.querySelectorAll("tr.event[data-seq]:not([data-fair-marked])")) {
      const record = wanted.get(Number(row.dataset.seq));
      if (record) markRow(doc, row, record, matchId);
    }
  };
  const load = async () => {
    const records = await fetchRecords(matchId, known);
    for (const record of records) {
      if (MARKED_TYPES.has(record.type)) wanted.set(record.seq, record);
      known = Math.max(known, record.seq + 1);
    }
    apply();
  };
  const catchUp = () => {
    const rows = doc.querySelectorAll("tr.event[data-seq]");
    const newest = rows.length ? Math.max(...Array.from(rows, (r) => Number(r.dataset.seq))) : -1;
    if (newest >= known && !busy) {
      busy = load().catch(() => {}).finally(() => {
        busy = null;
      });
    }
    apply();
  };
  try {
    await load();
  } catch {
    return; // the marks are a convenience: the page stays as it is
  }
  new MutationObserver(catchUp).observe(doc.body, { childList: true, subtree: true });
}
