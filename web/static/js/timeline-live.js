// A running match's timeline follows it in place: every two seconds the page asks for what
// it has not shown yet (GET <page>?from=N: nothing, or the new records in their step groups
// with every group's account, where the match stands and the chart anew) and merges it.
// Rows already shown stay as they are, with their verification marks (tr.event.ok/.bad and
// the ✓ of td.check, which verify-log.js writes); the scroll of the page and of the log box
// stay; new rows are marked as just arrived and said to screen readers.

import { enableCopy } from "./common.js";
import { showTimes } from "./timeline-time.js";

const EVERY_MS = 2000;
const MOST_WAIT_MS = 30_000;
const ARRIVED_MS = 12_000;

const $ = (id) => document.getElementById(id);

function fragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content;
}

function checkedBefore() {
  return document.querySelector("#timeline tr.event.ok, #timeline tr.event.bad") !== null;
}

// A group's heading takes the new title, review link and account; anything else a script
// added to it (a fair-play mark) stays.
function updateHead(old, head) {
  if (!old || !head) return;
  const title = old.querySelector(".group-title > span");
  const fresh = head.querySelector(".group-title > span");
  if (title && fresh) title.textContent = fresh.textContent;
  const link = head.querySelector(".review-link");
  if (link && !old.querySelector(".review-link") && title) title.after(" ", link);
  const account = head.querySelector("ul.account");
  const shown = old.querySelector("ul.account");
  if (account && shown) shown.replaceWith(account);
  else if (account) old.querySelector("th").append(account);
}

/** Merge a part (timeline_part.html) into the page; return the rows that arrived. */
export function merge(part) {
  const root = part.querySelector("#timeline-part");
  if (!root) return { arrived: [], root: null };
  const status = root.querySelector("#part-status");
  if (status) $("match-status").replaceChildren(...status.childNodes);
  const scores = root.querySelector("#part-scores");
  if (scores) $("scores").replaceChildren(...scores.childNodes);
  const table = $("timeline");
  const box = $("log-box");
  const atBottom = box && box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  const arrived = [];
  const verified = checkedBefore();
  for (const group of [...root.querySelectorAll("#part-log > tbody.group")]) {
    let shown = document.getElementById(group.id);
    if (!shown) {
      shown = group.cloneNode(false);
      shown.append(group.querySelector("tr.group-head"));
      table.append(shown);
    } else {
      for (const name of ["resolved", "round", "step"]) {
        if (group.dataset[name] !== undefined) shown.dataset[name] = group.dataset[name];
      }
      updateHead(shown.querySelector("tr.group-head"), group.querySelector("tr.group-head"));
    }
    for (const row of [...group.querySelectorAll("tr.event[data-seq]")]) {
      if (table.querySelector(`tr.event[data-seq="${row.dataset.seq}"]`)) continue;
      row.classList.add("arrived");
      if (verified) {
        const cell = row.querySelector("td.check");
        cell.textContent = "\u2026";
        cell.title = "arrived after your check: verify again to check it";
      }
      shown.append(row);
      arrived.push(row);
    }
  }
  if (box && atBottom) box.scrollTop = box.scrollHeight;
  return { arrived, root };
}

function announce(rows) {
  const said = $("arrivals");
  if (!said || rows.length === 0) return;
  const texts = rows.slice(-3).map((r) => r.querySelector("td.text").textContent.trim());
  const count = rows.length === 1 ? "A new record" : `${rows.length} new records`;
  said.textContent = `${count}: ${texts.join("; ")}.`;
}

/** Follow the match of ``head`` (#match) while it runs; ``viewer`` moves along with it. */
export function followLive(head, viewer) {
  if (head.dataset.finished === "yes") return;
  let wait = EVERY_MS;
  let timer = null;
  let busy = false;
  const base = window.location.pathname.replace(/\/+$/, "");
  const poll = async () => {
    timer = null;
    if (document.hidden || busy) return; // resumed on visibilitychange
    busy = true;
    try {
      const response = await fetch(`${base}?from=${head.dataset.records}`, { credentials: "same-origin" });
      if (response.status === 200) {
        const { arrived, root } = merge(fragment(await response.text()));
        if (root) {
          head.dataset.records = root.dataset.records;
          head.dataset.last = root.dataset.last;
          head.dataset.finished = root.dataset.finished;
          enableCopy(document.getElementById("timeline"));
          showTimes(document);
          announce(arrived);
          setTimeout(() => arrived.forEach((r) => r.classList.remove("arrived")), ARRIVED_MS);
          if (viewer) viewer.grow(Number(root.dataset.last), root.dataset.rounds === "yes");
        }
      } else if (response.status !== 204) {
        throw new Error(String(response.status));
      }
      wait = EVERY_MS;
    } catch {
      wait = Math.min(wait * 2, MOST_WAIT_MS); // offline for a moment: try again later
    } finally {
      busy = false;
    }
    if (head.dataset.finished !== "yes") timer = setTimeout(poll, wait);
  };
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer === null && !busy && head.dataset.finished !== "yes") poll();
  });
  timer = setTimeout(poll, EVERY_MS);
}
