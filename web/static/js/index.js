// The front page's match list: filters (live, finished, game) that work without a reload and
// keep themselves in the address (?show=live&game=six-nimmt), each open step's time left
// counting down, last activity in the reader's own time, and every 15 seconds each match's
// status, deadline and winners brought up to date from GET /api/matches (the same words).

const table = document.getElementById("matches");
const form = document.getElementById("filters");

/** Time left until an RFC 3339 deadline, in words: "1:32 left", "3 h 5 min left", "passed". */
export function timeLeft(deadline, now = Date.now()) {
  const left = Math.ceil((Date.parse(deadline) - now) / 1000);
  if (Number.isNaN(left)) return "";
  if (left <= 0) return "deadline passed";
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  if (days > 0) return `${days} d ${hours} h left`;
  if (hours > 0) return `${hours} h ${minutes} min left`;
  return `${minutes}:${seconds} left`;
}

/** A moment as "5 min ago", "today 14:03" or "12 Mar 14:03", in the reader's time zone. */
export function when(iso, now = new Date()) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const ago = Math.round((now - at) / 1000);
  if (ago >= 0 && ago < 60) return "just now";
  if (ago >= 0 && ago < 3600) return `${Math.floor(ago / 60)} min ago`;
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (at.toDateString() === now.toDateString()) return `today ${time}`;
  const day = at.toLocaleDateString([], { day: "numeric", month: "short", year: at.getFullYear() === now.getFullYear() ? undefined : "numeric" });
  return `${day} ${time}`;
}

function tick() {
  for (const span of document.querySelectorAll("[data-deadline]")) {
    const words = timeLeft(span.dataset.deadline);
    span.textContent = words ? `, ${words}` : "";
  }
  for (const time of document.querySelectorAll("#matches time[datetime]")) {
    const words = when(time.getAttribute("datetime"));
    if (words) {
      time.textContent = words;
      time.title = `${new Date(time.getAttribute("datetime")).toLocaleString()}`;
    }
  }
}

function filter() {
  const show = form.elements.show.value;
  const game = form.elements.game.value;
  let shown = 0;
  for (const row of table.tBodies[0].rows) {
    const fits = (show === "all" || (show === "live") === (row.dataset.live === "yes"))
      && (!game || row.dataset.game === game);
    row.hidden = !fits;
    if (fits) shown += 1;
  }
  document.getElementById("shown-count").textContent = `${shown} match${shown === 1 ? "" : "es"} shown`;
  document.getElementById("none-shown").hidden = shown !== 0;
  table.hidden = shown === 0;
  const query = new URLSearchParams();
  if (show !== "all") query.set("show", show);
  if (game) query.set("game", game);
  const search = query.toString();
  history.replaceState(null, "", window.location.pathname + (search ? `?${search}` : ""));
}

const REFRESH_MS = 15000;

/** Bring each listed match up to date; say so when matches were added since the page loaded. */
export async function refresh() {
  let listed;
  try {
    const answer = await fetch("/api/matches", { headers: { Accept: "application/json" } });
    if (!answer.ok) return;
    listed = await answer.json();
  } catch (e) {
    return; // offline for a moment: the next refresh tries again
  }
  let added = 0;
  for (const match of listed) {
    const row = table.querySelector(`tr[data-match="${CSS.escape(match.match_id)}"]`);
    if (!row) {
      added += 1;
      continue;
    }
    row.dataset.live = match.live ? "yes" : "no";
    const words = row.querySelector(".status-words");
    words.textContent = match.status_words;
    words.className = `status-words ${match.live ? "live" : "over"}`;
    let left = row.querySelector(".left");
    if (match.deadline) {
      if (!left) {
        left = document.createElement("span");
        left.className = "left";
        words.after(left);
      }
      left.dataset.deadline = match.deadline;
    } else if (left) {
      left.remove();
    }
    row.querySelector(".winner").textContent = match.winner_words;
    const time = row.querySelector("time");
    time.setAttribute("datetime", match.last_activity);
  }
  const note = document.getElementById("more-matches");
  note.hidden = added === 0;
  if (added > 0) {
    note.querySelector("span").textContent = `${added} new match${added === 1 ? "" : "es"} since this page was loaded.`;
  }
  filter();
  tick();
}

if (table && form) {
  const asked = new URLSearchParams(window.location.search);
  const show = asked.get("show");
  if (["all", "live", "finished"].includes(show)) form.elements.show.value = show;
  const game = asked.get("game");
  if (game && [...form.elements.game.options].some((o) => o.value === game)) form.elements.game.value = game;
  form.addEventListener("change", filter);
  form.addEventListener("submit", (event) => event.preventDefault());
  filter();
  tick();
  setInterval(tick, 1000);
  setInterval(refresh, REFRESH_MS);
}
