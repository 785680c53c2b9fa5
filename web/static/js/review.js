// The dispute review page: one player's table in a played step with the dealer room's own
// controls for the game (its controls.js, given what the player had and could do then, which
// the service rebuilt from the public records), and the match replayed from there: the
// what-if is asked of the JSON API (POST /api/matches/<id>/what-if, the command line's
// `replay --what-if`), the comparison swapped in place and the address updated, so that it
// reproduces the review. Without a table (a link to a comparison) only the comparison's
// step links and the copy button are wired.
import { api, copyText, say } from "./common.js";
import { Table } from "./room-table.js";
import { el, isLegal, plainPick, sameJSON, genericPickControls } from "./room-controls.js";

const root = document.getElementById("review");
const matchId = root.dataset.matchId;
const player = root.dataset.player;
const step = Number(root.dataset.step);
const $ = (id) => document.getElementById(id);

function readSeat() {
  try {
    return JSON.parse(root.dataset.seat || "null");
  } catch (e) {
    return null;
  }
}

function readRecorded() {
  try {
    return JSON.parse(root.dataset.recorded || "null");
  } catch (e) {
    return null;
  }
}

const seat = readSeat(); // the room's data for this player at this step, or null
const recorded = readRecorded(); // the pick the player made (the controls may start elsewhere)
let choice = null; // {payload, words}
let busy = false;

// ------------------------------------------------------------------ the pick

function choose(payload, words, options = {}) {
  choice = payload === null || payload === undefined ? null : { payload, words };
  const same = choice && recorded !== null && sameJSON(payload) === sameJSON(recorded);
  const extra = [];
  if (same) extra.push(`This is the pick ${player} made.`);
  if (choice && options.confirm) extra.push(options.confirm.replace(/\s*Send it anyway\?$/, ""));
  say($("pick-words"), [words || "", ...extra].filter(Boolean).join(" "));
  $("replay").disabled = !choice;
  if (choice) $("pick").value = JSON.stringify(payload);
}

function makeCtx(table) {
  return {
    room: seat,
    player,
    custody: "sealed",
    table,
    el,
    isLegal: (payload) => isLegal(seat, payload),
    choose: (payload, words, options = {}) => choose(payload, words, options),
    unchoose: (words) => choose(null, words),
  };
}

async function loadControls() {
  const url = root.dataset.controls;
  if (!url) return {};
  try {
    return await import(url);
  } catch (e) {
    return {}; // the generic controls and the JSON field still work
  }
}

async function mountControls() {
  const table = new Table($("table-stage"));
  table.show(seat.picture);
  const controls = await loadControls();
  const box = $("pick-controls");
  try {
    (controls.pickControls || genericPickControls)(box, makeCtx(table));
  } catch (e) {
    box.replaceChildren(el("p", { className: "bad", textContent: "This game's controls could not be shown; type the pick under Advanced below." }));
  }
  if (!choice) $("replay").disabled = true;
}

function useTyped() {
  let payload;
  try {
    payload = JSON.parse($("pick").value);
  } catch (e) {
    say($("json-result"), "That is not valid JSON: check the brackets and quotes.", "bad");
    return;
  }
  const legal = isLegal(seat, payload) ? "" : " It is not one of the picks the rules listed as legal then; the replay will say whether the rules accept it.";
  choose(payload, `You typed: ${plainPick(payload)}.${legal}`);
  say($("json-result"), "Ready: replay the match with the button above.", "ok");
}

// ------------------------------------------------------------------ the comparison

function fragmentUrl(link) {
  const url = new URL(link, window.location.href);
  return `${url.pathname}/comparison${url.search}`;
}

async function showComparison(link, { push = true, focus = true } = {}) {
  const response = await fetch(fragmentUrl(link), { headers: { Accept: "text/html" }, credentials: "same-origin" });
  const html = await response.text();
  if (!response.ok && !html.includes("review-problem")) throw new Error(`${response.status} ${response.statusText}`);
  const area = $("comparison");
  area.innerHTML = html; // the service's own HTML: escaped text and its SVG drawings
  if (push) history.pushState({ review: link }, "", link);
  wireComparison();
  const heading = $("comparison-title") || area.querySelector("h2");
  if (focus && heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

async function replay(event) {
  event.preventDefault();
  if (busy) return;
  if (!choice) {
    say($("replay-result"), "Choose a pick first.", "bad");
    return;
  }
  busy = true;
  $("replay").disabled = true;
  say($("replay-result"), "Replaying the match…", "info");
  try {
    const answer = await api("POST", `/api/matches/${matchId}/what-if`, { step, player, payload: choice.payload });
    await showComparison(answer.review_url);
    say($("replay-result"), answer.first_divergent_step === null
      ? "Replayed: nothing changes."
      : `Replayed: the match takes another course from step ${answer.first_divergent_step}.`, "ok");
  } catch (e) {
    say($("replay-result"), e.message.charAt(0).toUpperCase() + e.message.slice(1), "bad");
  } finally {
    busy = false;
    $("replay").disabled = !choice;
  }
}

function wireComparison() {
  const copy = $("copy-link");
  if (copy && !copy.dataset.ready) {
    copy.dataset.ready = "yes";
    copy.addEventListener("click", async () => {
      const url = new URL(copy.dataset.link, window.location.href).href;
      const ok = await copyText(url);
      say(copy, ok ? "Copied" : "Copy the link");
      if (!ok) window.getSelection().selectAllChildren($("review-link"));
      setTimeout(() => say(copy, "Copy the link"), 1500);
    });
  }
  for (const link of document.querySelectorAll("#comparison a.course-step")) {
    link.addEventListener("click", async (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      try {
        await showComparison(link.getAttribute("href"), { focus: false });
        const title = $("shown-title");
        if (title) title.scrollIntoView({ block: "start" });
        const current = document.querySelector(`#comparison a.course-step[data-step="${link.dataset.step}"]`);
        if (current) current.focus({ preventScroll: true });
      } catch (e) {
        window.location.href = link.href;
      }
    });
  }
}

window.addEventListener("popstate", async () => {
  const params = new URLSearchParams(window.location.search);
  if (!params.get("pick") || params.get("step") !== String(step) || params.get("player") !== player) {
    window.location.reload();
    return;
  }
  try {
    await showComparison(window.location.pathname + window.location.search, { push: false, focus: false });
  } catch (e) {
    window.location.reload();
  }
});

if (seat) {
  $("what-if-form").addEventListener("submit", replay);
  $("use-json").addEventListener("click", useTyped);
  await mountControls();
}
wireComparison();
