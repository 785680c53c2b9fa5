// The host console: open and seal steps, see who has submitted (not what) and which seats
// are claimed, make a new invite for a seat, export.
import { api, say, countdown, startPrivatePage, enableCopy } from "./common.js";

const host = document.getElementById("host");
const matchId = host.dataset.matchId;
const base = `/api/matches/${matchId}`;
const $ = (id) => document.getElementById(id);

function render(status) {
  lastStatus = status;
  const step = status.step;
  let text;
  if (status.finished) {
    text = `Finished. Result: ${JSON.stringify(status.result)}`;
  } else if (!step) {
    text = "No step opened yet: open the first one.";
  } else {
    text = `Step ${step.number} (${step.kind}) is ${step.status}`;
    if (step.status === "open") text += `, deadline: ${countdown(step.deadline)}`;
    if (step.decision) text += `; waiting for ${step.decision.player} to decide (${step.decision.kind}, ${countdown(step.decision.deadline)})`;
    if (step.awaiting_openings.length) text += `; waiting for openings from ${step.awaiting_openings.join(", ")}`;
  }
  say($("host-status"), text);
  for (const row of document.querySelectorAll("#submitters tr")) {
    const p = row.dataset.player;
    let state = "—";
    if (step && step.submitters.includes(p)) {
      state = step.submitted.includes(p) ? "submitted" : (step.status === "open" ? "not yet" : "missing (default)");
    } else if (step) {
      state = "not asked";
    }
    row.querySelector(".state").textContent = state;
    row.className = state === "submitted" ? "ok" : "";
    row.querySelector(".seat").textContent = seatText(status.seats && status.seats[p]);
  }
  const open = step && step.status === "open";
  $("open-step-button").disabled = status.finished || (step && step.status !== "resolved");
  $("seal").disabled = !open;
  $("force-openings").disabled = !(step && step.awaiting_openings.length);
  $("default-decision").disabled = !(step && step.decision);
}

function seatText(seat) {
  if (!seat) return "—";
  if (!seat.claimed) return "not claimed yet";
  return seat.public_key ? "claimed, signs with its key" : "claimed, no key";
}

let reinviting = null; // the player whose new invite waits for the host's confirmation
let lastStatus = null;

for (const button of document.querySelectorAll("button.reinvite")) {
  button.addEventListener("click", () => {
    reinviting = button.dataset.player;
    $("reinvite-done").hidden = true;
    say($("reinvite-result"), "");
    const seat = lastStatus && lastStatus.seats ? lastStatus.seats[reinviting] : null;
    const loses = seat && !seat.claimed
      ? `The invite link ${reinviting} has now stops working.`
      : `Whoever holds ${reinviting}'s seat now loses it: their browser's access and their backup file stop working.`;
    say($("reinvite-question"), `Make a new invite for ${reinviting}? ${loses} The seat then waits for the new invite, and the public log records that you did this.`);
    $("reinvite-box").hidden = false;
    $("reinvite-confirm").focus();
  });
}

$("reinvite-cancel")?.addEventListener("click", () => {
  reinviting = null;
  $("reinvite-box").hidden = true;
});

$("reinvite-confirm")?.addEventListener("click", async () => {
  const p = reinviting;
  if (!p) return;
  $("reinvite-box").hidden = true;
  reinviting = null;
  try {
    const answer = await api("POST", `${base}/players/${encodeURIComponent(p)}/invite`, {});
    say($("reinvite-what"), `New invite for ${p}. Send it to ${p} only; it works once. The old link and the old holder's access no longer work.`);
    say($("reinvite-link"), answer.link);
    $("reinvite-copy").dataset.copy = answer.link;
    $("reinvite-copy").setAttribute("aria-label", `Copy ${p}'s new invite link`);
    $("reinvite-done").hidden = false;
    enableCopy($("reinvite-done"));
  } catch (e) {
    say($("reinvite-result"), e.message, "bad");
  }
  refresh();
});

async function refresh() {
  try {
    render(await api("GET", base));
  } catch (e) {
    say($("host-status"), e.message, "bad");
  }
}

async function act(method, url, body) {
  try {
    const answer = await api(method, url, body);
    say($("host-result"), answer.step ? `Step ${answer.step} is open.` : `Done: ${answer.result}.`, "ok");
  } catch (e) {
    say($("host-result"), e.message, "bad");
  }
  refresh();
}

$("open-step")?.addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { seconds: Number($("seconds").value) };
  const deal = $("deal").value.trim();
  if (deal) {
    try {
      body.deal = JSON.parse(deal);
    } catch (e) {
      say($("host-result"), `the deal is not JSON: ${e.message}`, "bad");
      return;
    }
  }
  act("POST", `${base}/steps`, body);
});
$("seal")?.addEventListener("click", () => act("POST", `${base}/seal`));
$("force-openings")?.addEventListener("click", () => act("POST", `${base}/openings/force`));
$("default-decision")?.addEventListener("click", () => act("POST", `${base}/decisions/default`));

startPrivatePage(host, refresh, "Open this page through the host's private link.");
