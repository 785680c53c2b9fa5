// A player's dealer room: the table from the player's seat, the pick made by tapping the game's
// controls and sealed in one action (the commitment computed and signed here), the decisions
// the rules ask, where the player stands at a glance, receipts fetched again from the service,
// and self-custody openings kept in a file. Live: the public status is polled every two
// seconds and the room redrawn when it changes. Everything goes through the JSON API.
import { api, say, download, countdown, copyText } from "./common.js";
import { canonicalJSON, commitment, randomSaltHex } from "./dealerroom-crypto.js";
import { loadSeat, signCommitment } from "./seat.js";
import { Seat, MESSAGES } from "./room-seat.js";
import { Table } from "./room-table.js";
import { Alerts } from "./room-alerts.js";
import {
  el, isLegal, plainPick, genericPickControls, genericDecisionControls,
} from "./room-controls.js";

const roomEl = document.getElementById("room");
const matchId = roomEl.dataset.matchId;
const player = roomEl.dataset.player;
const custody = roomEl.dataset.custody;
const gameName = roomEl.dataset.gameName;
const base = `/api/matches/${matchId}`;
const mine = `${base}/players/${encodeURIComponent(player)}`;
const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;

const seat = new Seat(matchId, player);
let data = null; // the room's data (GET .../room)
let statusText = ""; // the public status last seen, to notice a change
let seatLost = false;
let controls = {};
let table = null;
let alerts = null;
let mounted = { pick: null, decision: null };
let choice = null; // {payload, words, confirm}
let decisionChoice = null;
let busy = false;

const storeKey = (kind, step) => `dealerroom:${kind}:${matchId}:${player}:${step}`;
const short = (digest) => `${digest.slice(0, 12)}…`;

function listed(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function readJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch (e) {
    return null;
  }
}

// ------------------------------------------------------------------ the seat

async function seatRefused() {
  if (seatLost) return;
  seatLost = true;
  if (await seat.signInWithKept() === "ok") {
    seatLost = false;
    return;
  }
  for (const id of ["table-panel", "step-panel", "alerts-panel", "seat-panel", "backup-banner", "banner"]) $(id).hidden = true;
  $("seat-lost").hidden = false;
  say($("seat-lost-message"), MESSAGES.lost, "bad");
}

/** A call as this player; a refused grant means the seat was taken away. */
async function asPlayer(method, url, body) {
  try {
    return await api(method, url, body);
  } catch (e) {
    if (e.status === 401 || (method === "GET" && e.status === 403)) await seatRefused();
    throw e;
  }
}

// ------------------------------------------------------------------ where you stand

function bannerState() {
  const s = data.status;
  const step = s.step;
  const words = data.words;
  if (s.finished) return { text: `The match is over. ${(words.result || [])[0] || ""}`, kind: "done" };
  if (!step) return { text: "Waiting for the host to open the first step.", kind: "wait" };
  const left = countdown(step.deadline);
  if (step.status === "open") {
    if (!step.submitters.includes(player)) {
      return { text: `Waiting for ${listed(step.missing)} to choose · ${left}`, kind: "wait" };
    }
    if (step.submitted.includes(player)) {
      if (!step.missing.length) return { text: "Sealed · every pick is in; they are revealed when the host seals the step", kind: "wait" };
      return { text: `Sealed · waiting for ${listed(step.missing)} · ${left}`, kind: "wait" };
    }
    if (left === "passed") return { text: "Deadline passed: you get the default", kind: "bad" };
    return { text: `Your turn · ${left}`, kind: "turn", turn: "Your turn" };
  }
  const decision = step.decision;
  if (decision) {
    if (decision.player === player) {
      return { text: `Your decision · ${countdown(decision.deadline)}`, kind: "turn", turn: "Your decision", line: words.decision };
    }
    return { text: words.decision, kind: "wait" };
  }
  if (step.status === "sealed") {
    if (custody === "self" && step.awaiting_openings.includes(player)) {
      return { text: "Open your pick now so it counts", kind: "turn", turn: "Open your pick" };
    }
    return { text: "The picks are sealed and being revealed…", kind: "wait" };
  }
  if (words.defaulted) return { text: `Deadline passed: you got the default. ${(words.yours || []).join(" ")}`, kind: "bad" };
  const yours = (words.yours || []).join(" ");
  return { text: yours || `Step ${step.number} is over; waiting for the host to open the next.`, kind: "info" };
}

function renderBanner() {
  if (!data) return;
  const state = bannerState();
  const banner = $("banner");
  banner.textContent = state.text;
  banner.className = `banner banner-${state.kind}`;
  alerts.update(state.turn, state.line || state.text);
}

function renderWhoSent() {
  const list = $("who-sent");
  list.replaceChildren();
  const step = data.status.step;
  if (!step || step.status !== "open") {
    list.hidden = true;
    return;
  }
  list.hidden = false;
  for (const name of step.submitters) {
    const sent = step.submitted.includes(name);
    const who = name === player ? "you" : name;
    list.append(el("li", { className: sent ? "sent" : "waiting", textContent: `${who}: ${sent ? "sealed ✓" : "choosing…"}` }));
  }
}

function renderWords() {
  const seatList = $("seat-words");
  seatList.replaceChildren(...(data.words.seat || []).map((t) => el("li", { textContent: t })));
  const yours = data.words.yours || [];
  const last = data.words.last_step || [];
  $("after").hidden = !(yours.length || last.length);
  say($("after-title"), data.words.last_step_number ? `What happened in step ${data.words.last_step_number}` : "What happened");
  $("yours").replaceChildren(...yours.map((t) => el("li", { textContent: t })));
  $("last-step").replaceChildren(...last.map((t) => el("li", { textContent: t })));
  const finished = data.status.finished;
  $("result").hidden = !finished;
  $("alerts-panel").hidden = finished; // nothing more will be your turn
  if (finished) $("result-words").replaceChildren(...(data.words.result || []).map((t) => el("li", { textContent: t })));
}

function stepTitle() {
  const s = data.status;
  if (s.finished) return "The match has finished";
  if (!s.step) return "Waiting for the first step";
  const kind = (s.step.kind || "step").replace(/-/g, " ");
  return `Step ${s.step.number} · ${kind}`;
}

// ------------------------------------------------------------------ the pick

function makeCtx(kind) {
  return {
    get room() { return data; },
    player,
    custody,
    table,
    el,
    isLegal: (payload) => isLegal(data, payload),
    choose: (payload, words, options = {}) => (kind === "pick" ? choosePick : chooseDecision)(payload, words, options),
    unchoose: (words) => (kind === "pick" ? choosePick : chooseDecision)(null, words, {}),
  };
}

function choosePick(payload, words, options) {
  $("confirm").hidden = true;
  choice = payload === null || payload === undefined ? null : { payload, words, confirm: options.confirm };
  say($("pick-words"), words || "");
  $("send").disabled = !choice;
  if (choice) $("payload").value = JSON.stringify(payload);
}

function chooseDecision(payload, words) {
  decisionChoice = payload === null || payload === undefined ? null : { payload, words };
  say($("decision-choice"), words || "");
  $("decide").disabled = !decisionChoice;
  if (decisionChoice) $("decision-payload").value = JSON.stringify(payload);
}

function mountPick(step) {
  mounted.pick = step.number;
  table.reset();
  const root = $("pick-controls");
  root.replaceChildren();
  choosePick(null, "", {});
  say($("pick-result"), "");
  $("payload").value = "";
  try {
    (controls.pickControls || genericPickControls)(root, makeCtx("pick"));
  } catch (e) {
    root.replaceChildren(el("p", { className: "bad", textContent: "This game's controls could not be shown; type your pick under Advanced below." }));
  }
}

function mountDecision(key) {
  mounted.decision = key;
  table.reset();
  const root = $("decision-controls");
  root.replaceChildren();
  chooseDecision(null, "");
  say($("decision-result"), "");
  try {
    (controls.decisionControls || genericDecisionControls)(root, makeCtx("decision"));
  } catch (e) {
    root.replaceChildren(el("p", { className: "bad", textContent: "This game's controls could not be shown; type your decision under Advanced below." }));
  }
}

function unmount(kind) {
  if (mounted[kind] === null) return;
  mounted[kind] = null;
  table.reset();
  $(kind === "pick" ? "pick-controls" : "decision-controls").replaceChildren();
}

/** The pick last sent (or being sent) in a step: {payload (canonical JSON), salt, commitment, recorded}. */
function lastSent(step) {
  return readJSON(storeKey("sent", step));
}

function showSealed(step, digest) {
  const line = $("sealed-line");
  line.hidden = !digest;
  if (!digest) return;
  say($("commitment-short"), short(digest));
  $("commitment-short").title = digest;
  $("copy-commitment").onclick = async () => {
    const ok = await copyText(digest);
    say($("copy-commitment"), ok ? "Copied" : "Copy");
  };
  const params = new URLSearchParams({ match: matchId, step: String(step), player, commitment: digest });
  $("check-link").href = `/check#${params}`;
}

/** The commitment that stands for this player in ``step`` (this browser's, else a receipt's). */
function standingCommitment(step) {
  const sent = lastSent(step);
  if (sent && sent.recorded) return sent.commitment;
  const receipts = storedReceipts().filter((r) => r.record.data.step === step);
  return receipts.length ? receipts[receipts.length - 1].record.data.commitment : null;
}

function renderPickArea() {
  const s = data.status;
  const step = s.step;
  const open = Boolean(step && step.status === "open" && step.submitters.includes(player) && !s.finished);
  $("pick-area").hidden = !open;
  if (!open) {
    unmount("pick");
    $("secret-area").hidden = true;
    return;
  }
  if (mounted.pick !== step.number) mountPick(step);
  say($("default-words"), data.words.default || "");
  const submitted = step.submitted.includes(player);
  const digest = submitted ? standingCommitment(step.number) : null;
  showSealed(step.number, digest);
  if (submitted && !$("pick-result").textContent) {
    say($("pick-result"), "Sealed: your pick stands. You may change it until the step is sealed.", "ok");
  }
  say($("send"), submitted ? "Seal and send my new pick" : "Seal and send my pick");
  $("secret-area").hidden = !(custody === "self" && readJSON(storeKey("opening", step.number)));
}

function renderOpenArea() {
  const step = data.status.step;
  const waiting = Boolean(step && custody === "self" && step.status === "sealed" && step.awaiting_openings.includes(player));
  $("open-area").hidden = !waiting;
  if (waiting) $("open-pick").hidden = !readJSON(storeKey("opening", step.number));
}

function renderDecisionArea() {
  const step = data.status.step;
  const decision = step && step.decision;
  const deciding = Boolean(decision && decision.player === player);
  $("decision-area").hidden = !deciding;
  if (!deciding) {
    unmount("decision");
    return;
  }
  const key = `${step.number}:${decision.index}`;
  say($("decision-words"), data.words.decision || "");
  if (mounted.decision !== key) mountDecision(key);
}

async function sendPick(confirmed) {
  if (!choice || busy) return;
  if (choice.confirm && !confirmed) {
    say($("confirm-text"), choice.confirm);
    $("confirm").hidden = false;
    $("confirm-yes").focus();
    return;
  }
  $("confirm").hidden = true;
  const state = seat.keyState();
  if (state === "missing") {
    say($("pick-result"), "This browser does not hold your seat's signing key, so it cannot sign your pick: restore your seat from its backup file (below), then send again.", "bad");
    $("restore-details").open = true;
    return;
  }
  const step = data.status.step.number;
  const { payload, words } = choice;
  const canonical = canonicalJSON(payload);
  // A new pick gets a fresh salt; the very pick last sent keeps its salt, so sending it
  // again is an identical re-send the service answers as unchanged.
  const last = lastSent(step);
  const salt = last && last.payload === canonical ? last.salt : randomSaltHex();
  const hadPick = data.status.step.submitted.includes(player);
  busy = true;
  $("send").disabled = true;
  say($("pick-result"), "Sealing…", "info");
  try {
    const digest = await commitment(matchId, step, player, payload, salt);
    const body = { step };
    if (state === "signed") body.signature = await signCommitment(matchId, step, player, loadSeat(matchId, player), digest);
    localStorage.setItem(storeKey("sent", step), JSON.stringify({ payload: canonical, salt, commitment: digest }));
    let answer;
    if (custody === "self") {
      localStorage.setItem(storeKey("opening", step), JSON.stringify({ payload, salt, commitment: digest }));
      answer = await asPlayer("POST", `${mine}/commitments`, { ...body, commitment: digest });
    } else {
      answer = await asPlayer("POST", `${mine}/submissions`, { ...body, payload, salt });
    }
    localStorage.setItem(storeKey("sent", step), JSON.stringify({ payload: canonical, salt, commitment: answer.commitment, recorded: true }));
    if (answer.receipt) keepReceipt(answer.receipt);
    if (answer.commitment !== digest) {
      say($("pick-result"), "The service recorded a different commitment from the one your browser computed. Keep this page open and tell the host.", "bad");
    } else if (answer.unchanged) {
      say($("pick-result"), `Sealed, unchanged: the service already held exactly this pick, and your commitment stands. ${words}`, "ok");
    } else {
      const replaced = hadPick ? " This replaced your earlier pick for this step." : "";
      say($("pick-result"), `Sealed.${replaced} ${words} You may change it until the step is sealed.`, "ok");
    }
    showSealed(step, answer.commitment);
    $("secret-area").hidden = custody !== "self";
  } catch (e) {
    say($("pick-result"), e.status === 0 ? `${e.message} Sending the same pick again is safe.` : e.message, "bad");
  } finally {
    busy = false;
    $("send").disabled = !choice;
  }
  await refresh(true);
}

function openingFile(step) {
  const kept = readJSON(storeKey("opening", step));
  return kept && { format: "dealerroom-opening-1", match_id: matchId, player, step, ...kept };
}

async function sendOpening(opening) {
  try {
    await asPlayer("POST", `${mine}/openings`, { payload: opening.payload, salt: opening.salt });
    say($("open-result"), "Opened: your pick counts.", "ok");
  } catch (e) {
    say($("open-result"), e.message, "bad");
  }
  await refresh(true);
}

async function openFromFile(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  try {
    const opening = JSON.parse(await file.text());
    const step = data.status.step.number;
    if (opening.format !== "dealerroom-opening-1" || opening.match_id !== matchId || opening.player !== player) {
      throw new Error("This file is not an opening file of this seat in this match.");
    }
    if (opening.step !== step) throw new Error(`This file opens step ${opening.step}, not step ${step}.`);
    await sendOpening(opening);
  } catch (e) {
    say($("open-result"), e instanceof SyntaxError ? "This file is not an opening file." : e.message, "bad");
  } finally {
    input.value = "";
  }
}

async function sendDecision() {
  if (!decisionChoice || busy) return;
  busy = true;
  $("decide").disabled = true;
  try {
    await asPlayer("POST", `${mine}/decisions`, { payload: decisionChoice.payload });
    say($("decision-result"), `Sent. ${decisionChoice.words}`, "ok");
  } catch (e) {
    say($("decision-result"), e.message, "bad");
    $("decide").disabled = false;
  } finally {
    busy = false;
  }
  await refresh(true);
}

function useTyped(textarea, output, kind) {
  let payload;
  try {
    payload = JSON.parse(textarea.value);
  } catch (e) {
    say(output, "That is not valid JSON: check the brackets and quotes.", "bad");
    return;
  }
  const words = `You typed: ${plainPick(payload)}.`;
  if (kind === "decision") {
    chooseDecision(payload, words);
    return;
  }
  const confirm = isLegal(data, payload) ? undefined
    : "This is not one of your legal picks now: the service may refuse it, or the rules may penalise it. Send it anyway?";
  choosePick(payload, words, { confirm });
  say(output, "Ready: send it with the button above.", "ok");
}

// ------------------------------------------------------------------ receipts

function storedReceipts() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key.startsWith(`dealerroom:receipt:${matchId}:${player}:`)) {
      const receipt = readJSON(key);
      if (receipt && receipt.record) out.push(receipt);
    }
  }
  return out.sort((a, b) => a.leaf_index - b.leaf_index);
}

function keepReceipt(receipt) {
  localStorage.setItem(storeKey("receipt", `${receipt.record.data.step}:${receipt.leaf_index}`), JSON.stringify(receipt));
}

function showReceipts() {
  const items = storedReceipts().map((receipt) => {
    const { step, commitment: digest } = receipt.record.data;
    const button = el("button", {
      type: "button", className: "secondary", textContent: "Download",
      "aria-label": `Download the receipt of step ${step}, log entry ${receipt.leaf_index}`,
    });
    button.addEventListener("click", () => download(`receipt-${matchId.slice(0, 8)}-step${step}-${player}.json`, receipt));
    return el("li", {}, el("span", { textContent: `Step ${step} · commitment ${short(digest)} · log entry ${receipt.leaf_index} ` }), button);
  });
  if (!items.length) items.push(el("li", { className: "muted", textContent: "No receipts yet: you get one each time you seal a pick." }));
  $("receipts").replaceChildren(...items);
}

async function fetchReceipts() {
  try {
    for (const receipt of await asPlayer("GET", `${mine}/receipts`)) keepReceipt(receipt);
  } catch (e) {
    // the receipts this browser kept are still shown
  }
  showReceipts();
  if (data) renderPickArea(); // the commitment that stands, known now on a new device
}

// ------------------------------------------------------------------ live

function render() {
  seat.status = data.status;
  seat.render();
  say($("step-title"), stepTitle());
  table.show(data.picture);
  renderWords();
  renderWhoSent();
  renderPickArea();
  renderOpenArea();
  renderDecisionArea();
  renderIdle();
  renderBanner();
}

/** When the step asks nothing of you, say so instead of leaving the panel empty. */
function renderIdle() {
  const s = data.status;
  const busy = ["pick-area", "open-area", "decision-area"].some((id) => !$(id).hidden);
  const idle = !busy && !s.finished && Boolean(s.step);
  $("step-idle").hidden = !idle;
  if (!idle) return;
  const sent = s.step.submitted && s.step.submitted.includes(player);
  say($("step-idle"), sent
    ? "Your pick for this step is sealed. Nothing to do until the step moves on."
    : "Nothing to do in this step for now.");
}

async function refresh(force = false) {
  if (seatLost) return;
  try {
    const status = await api("GET", base);
    const text = JSON.stringify(status);
    if (!force && text === statusText && data) return;
    statusText = text;
    const seen = data ? data.log_size : 0;
    data = await asPlayer("GET", `${mine}/room`);
    render();
    if (data.log_size !== seen) showReceipts();
  } catch (e) {
    if (!seatLost) {
      const banner = $("banner");
      banner.textContent = `${e.message}. Trying again…`;
      banner.className = "banner banner-bad";
    }
  }
}

async function loadControls() {
  const url = roomEl.dataset.controls;
  if (!url) return {};
  try {
    return await import(url);
  } catch (e) {
    return {}; // the generic controls and the JSON field still work
  }
}

function wire() {
  $("send").addEventListener("click", () => sendPick(false));
  $("confirm-yes").addEventListener("click", () => sendPick(true));
  $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
  $("decide").addEventListener("click", sendDecision);
  $("use-json").addEventListener("click", () => useTyped($("payload"), $("json-result"), "pick"));
  $("use-decision-json").addEventListener("click", () => useTyped($("decision-payload"), $("decision-result"), "decision"));
  $("open-pick").addEventListener("click", () => sendOpening(openingFile(data.status.step.number)));
  $("open-file").addEventListener("change", () => openFromFile($("open-file")));
  $("download-opening").addEventListener("click", () => {
    const step = data.status.step.number;
    download(`opening-${matchId.slice(0, 8)}-step${step}-${player}.json`, openingFile(step));
  });
}

if (roomEl.dataset.signedIn === "yes") {
  seat.wire();
  table = new Table($("table-stage"));
  alerts = new Alerts({
    title: document.title, soundBox: $("sound"), notifyButton: $("notify"), notifyState: $("notify-state"),
    storageKey: `dealerroom:alerts:${matchId}:${player}`, gameName,
  });
  wire();
  controls = await loadControls();
  await refresh(true);
  fetchReceipts();
  setInterval(() => refresh(false), POLL_MS);
  setInterval(renderBanner, 1000);
} else {
  seat.open();
}
