// A player's dealer room: private view, sealed submission with a commitment computed here,
// receipts, self-custody openings and decisions. Everything goes through the JSON API.
import { api, say, download, countdown, startPrivatePage } from "./common.js";
import { commitment, randomSaltHex } from "./dealerroom-crypto.js";

const room = document.getElementById("room");
const matchId = room.dataset.matchId;
const player = room.dataset.player;
const custody = room.dataset.custody;
const base = `/api/matches/${matchId}`;
const mine = `${base}/players/${encodeURIComponent(player)}`;
const $ = (id) => document.getElementById(id);

let status = null;
let prepared = null; // {step, payload, salt, commitment} computed locally, not yet sent
let filledFor = null; // the step whose default pick was put in the form

const storeKey = (kind, step) => `dealerroom:${kind}:${matchId}:${player}:${step}`;

function receipts() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key.startsWith(`dealerroom:receipt:${matchId}:${player}:`)) {
      out.push(JSON.parse(localStorage.getItem(key)));
    }
  }
  return out.sort((a, b) => a.leaf_index - b.leaf_index);
}

function showReceipts() {
  const list = $("receipts");
  list.replaceChildren();
  for (const receipt of receipts()) {
    const item = document.createElement("li");
    const data = receipt.record.data;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "download";
    button.addEventListener("click", () => download(`receipt-${matchId.slice(0, 8)}-step${data.step}-${player}.json`, receipt));
    item.append(`step ${data.step}: commitment ${data.commitment.slice(0, 12)}… (event ${receipt.leaf_index}) `, button);
    list.appendChild(item);
  }
}

function quickButtons(container, choices, onPick) {
  container.replaceChildren();
  for (const [label, value] of choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.textContent = label;
    button.addEventListener("click", () => onPick(value));
    container.appendChild(button);
  }
}

function pickChoices(me) {
  const game = room.dataset.game;
  if (game === "six-nimmt" && me.view && Array.isArray(me.view.hand)) {
    return me.view.hand.map((card) => [String(card), { card }]);
  }
  if (game === "vote") {
    const candidates = (status.options && status.options.candidates) || status.players;
    return candidates.map((c) => [c, { vote: c }]);
  }
  return [];
}

function decisionChoices(decision) {
  const rows = decision.prompt && (decision.prompt.rows || decision.prompt.choices);
  if (decision.kind === "take-row" && Array.isArray(rows)) {
    const heads = decision.prompt.bullheads || [];
    return rows.map((row, i) => [`row ${i + 1}: ${row.join(" ")} (${heads[i] ?? "?"} bullheads)`, { row: i }]);
  }
  return [];
}

function setPayload(value) {
  $("payload").value = JSON.stringify(value);
  prepared = null;
  say($("local-commitment"), "—");
  say($("local-salt"), "—");
  $("send").disabled = true;
}

async function refresh() {
  try {
    status = await api("GET", base);
    const me = await api("GET", mine);
    render(me);
  } catch (e) {
    say($("step-info"), e.message, "bad");
  }
  showReceipts();
}

function render(me) {
  const list = document.createElement("dl");
  list.className = "view";
  for (const [key, value] of Object.entries(me.view || {})) {
    const term = Object.assign(document.createElement("dt"), { textContent: key });
    const shown = Array.isArray(value) && value.every((v) => typeof v !== "object")
      ? value.join("  ") : JSON.stringify(value);
    list.append(term, Object.assign(document.createElement("dd"), { className: "mono", textContent: shown }));
  }
  $("private-view").replaceChildren(list);
  const pick = $("current-pick");
  if (me.current_pick && me.current_pick.pick !== undefined) {
    pick.textContent = `${JSON.stringify(me.current_pick.pick)} (step ${me.current_pick.step})`;
  } else {
    pick.textContent = "none yet";
  }
  const step = status.step;
  const asked = step && step.submitters.includes(player);
  if (status.finished) {
    say($("step-title"), "The match has finished");
    say($("step-info"), `Result: ${JSON.stringify(status.result)}`);
  } else if (!step) {
    say($("step-title"), "Waiting for the host");
    say($("step-info"), "No step is open yet.");
  } else {
    say($("step-title"), `Step ${step.number} (${step.kind})`);
    const who = step.submitted.length ? step.submitted.join(", ") : "nobody yet";
    let info = `${step.status}; ${asked ? "you are asked to submit" : "you are not asked to submit this step"}; submitted: ${who}`;
    if (step.status === "open") info += `; deadline: ${countdown(step.deadline)}`;
    say($("step-info"), info);
  }
  const open = step && step.status === "open" && asked && !status.finished;
  $("pick-form").hidden = !open;
  if (open && filledFor !== step.number) {
    filledFor = step.number;
    setPayload(me.default_pick);
  }
  if (open) quickButtons($("quick-picks"), pickChoices(me), setPayload);
  const stored = step ? localStorage.getItem(storeKey("opening", step.number)) : null;
  $("open-form").hidden = !(step && custody === "self" && step.status === "sealed"
    && step.awaiting_openings.includes(player) && stored);
  const decision = step && step.decision;
  const deciding = decision && decision.player === player;
  $("decision-form").hidden = !deciding;
  if (deciding) {
    say($("decision-prompt"), `${decision.kind}: ${JSON.stringify(decision.prompt)} (deadline: ${countdown(decision.deadline)})`);
    quickButtons($("decision-quick"), decisionChoices(decision), (v) => { $("decision-payload").value = JSON.stringify(v); });
  }
}

$("compute")?.addEventListener("click", async () => {
  let payload;
  try {
    payload = JSON.parse($("payload").value);
  } catch (e) {
    say($("pick-result"), `your pick is not JSON: ${e.message}`, "bad");
    return;
  }
  const step = status.step.number;
  const salt = randomSaltHex();
  const digest = await commitment(matchId, step, player, payload, salt);
  prepared = { step, payload, salt, commitment: digest };
  say($("local-commitment"), digest);
  say($("local-salt"), salt);
  say($("pick-result"), "Check the commitment, then send it.", "info");
  $("send").disabled = false;
});

$("pick-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!prepared) return;
  const { step, payload, salt } = prepared;
  try {
    let answer;
    if (custody === "self") {
      answer = await api("POST", `${mine}/commitments`, { commitment: prepared.commitment, step });
      localStorage.setItem(storeKey("opening", step), JSON.stringify({ payload, salt }));
    } else {
      answer = await api("POST", `${mine}/submissions`, { payload, salt, step });
    }
    if (answer.commitment !== prepared.commitment) {
      say($("pick-result"), `the service recorded ${answer.commitment}, not your ${prepared.commitment}!`, "bad");
      return;
    }
    localStorage.setItem(storeKey("receipt", `${step}:${answer.receipt.leaf_index}`), JSON.stringify(answer.receipt));
    $("receipt").hidden = false;
    $("receipt").textContent = JSON.stringify(answer.receipt, null, 1);
    say($("pick-result"), `Sealed. The log holds your commitment as event ${answer.receipt.leaf_index}; your receipt is below. You may amend until the step is sealed.`, "ok");
    prepared = null;
    $("send").disabled = true;
  } catch (e) {
    say($("pick-result"), e.message, "bad");
  }
  refresh();
});

$("open-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const step = status.step.number;
  const { payload, salt } = JSON.parse(localStorage.getItem(storeKey("opening", step)));
  try {
    await api("POST", `${mine}/openings`, { payload, salt });
    say($("open-result"), "Opened.", "ok");
  } catch (e) {
    say($("open-result"), e.message, "bad");
  }
  refresh();
});

$("decision-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const payload = JSON.parse($("decision-payload").value);
    await api("POST", `${mine}/decisions`, { payload });
    say($("decision-result"), "Decided.", "ok");
  } catch (e) {
    say($("decision-result"), e.message, "bad");
  }
  refresh();
});

startPrivatePage(room, refresh, "Open this page through your private link (the one your host sent you).");
