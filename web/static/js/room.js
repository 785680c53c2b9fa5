// A player's dealer room: the seat (claimed with the invite link, signing key made here),
// the private view, sealed submissions signed by the player with a commitment computed here,
// receipts, self-custody openings and decisions. Everything goes through the JSON API.
import { api, say, download, countdown, takeFragment, signIn } from "./common.js";
import { canonicalJSON, commitment, randomSaltHex } from "./dealerroom-crypto.js";
import {
  backupFileName, backupOf, claimSeat, forgetSeat, loadSeat, restoreSeat, saveSeat, signCommitment,
} from "./seat.js";

const room = document.getElementById("room");
const matchId = room.dataset.matchId;
const player = room.dataset.player;
const custody = room.dataset.custody;
const base = `/api/matches/${matchId}`;
const mine = `${base}/players/${encodeURIComponent(player)}`;
const $ = (id) => document.getElementById(id);

const ASK_HOST = "If it was not you, ask the host for a new invite.";
const MESSAGES = {
  needLink: "Open this page through your invite link (the one your host sent you), or restore your seat from its backup file below.",
  claiming: "Claiming your seat and making your signing key…",
  claimed: `This seat was already claimed. ${ASK_HOST}`,
  badInvite: "This invite link does not open this seat (the host may have made a newer one); ask the host for a new invite.",
  badLink: "This link does not open this seat any more; ask the host for a new invite.",
  lost: "You no longer hold this seat: the host made a new invite for it, so this browser's access has ended. If you did not ask for that, ask the host for a new invite.",
  noCookie: "This browser did not keep your sign-in: allow cookies for this site, then open your link again or restore from your backup file.",
};

let status = null;
let prepared = null; // {step, payload, salt, commitment} computed locally, not yet sent
let filledFor = null; // the step whose default pick was put in the form
let timer = null;
let seatLost = false;
let backupJustSaved = false; // the banner stays to say so until the page is left
let controls = {}; // the game's quick choices (loadControls)

const storeKey = (kind, step) => `dealerroom:${kind}:${matchId}:${player}:${step}`;

// ------------------------------------------------------------------ the seat

/** The key the public log registered for this seat: a string, null (none), or undefined (unknown). */
function registeredKey() {
  const seats = status && status.seats;
  return seats && seats[player] ? seats[player].public_key : undefined;
}

/** "signed" (this browser holds the seat's key), "missing" (it does not) or "unsigned" (no key). */
function keyState() {
  const registered = registeredKey();
  if (!registered) return "unsigned";
  const seat = loadSeat(matchId, player);
  return seat && seat.private_key_jwk && seat.public_key === registered ? "signed" : "missing";
}

function renderSeat() {
  const seat = loadSeat(matchId, player);
  const state = keyState();
  const texts = {
    signed: "Your picks are signed with a key made in this browser; its public half is in the public log. Nobody else, not the host and not the service's operator, can make a pick in your name.",
    missing: "This seat signs its picks with a key that this browser does not hold. Restore your seat from its backup file below to play here.",
    unsigned: "Your seat has no signing key, so your picks are not signed by you: the service's operator could make one in your name.",
  };
  say($("seat-state"), registeredKey() === undefined ? "You hold this seat." : texts[state], state === "missing" ? "bad" : undefined);
  const canBackUp = Boolean(seat && seat.token);
  $("backup-banner").hidden = !canBackUp || (Boolean(seat.backed_up) && !backupJustSaved);
  $("backup").hidden = !canBackUp || Boolean(seat.backed_up);
  $("backup-again").hidden = !canBackUp || !seat.backed_up || backupJustSaved;
  if (state === "missing") $("restore-details").open = true;
}

function saveBackup(output) {
  const seat = loadSeat(matchId, player);
  if (!seat) return;
  download(backupFileName(matchId, player), backupOf(matchId, player, seat));
  saveSeat(matchId, player, { ...seat, backed_up: true });
  backupJustSaved = output === $("backup-result");
  renderSeat();
  say(output, `Backup saved to your downloads as ${backupFileName(matchId, player)}. Keep the file private: whoever holds it can play as you.`, "ok");
}

async function restoreFromFile(input, output) {
  const file = input.files && input.files[0];
  if (!file) return;
  say(output, "Restoring your seat…", "info");
  try {
    await restoreSeat(await file.text(), matchId, player);
    say(output, "Seat restored: this browser now holds your seat and its key.", "ok");
    reloadSignedIn();
  } catch (e) {
    say(output, e.message, "bad");
  } finally {
    input.value = "";
  }
}

/**
 * Sign in again with the credential this browser kept: "ok", "none" (nothing kept), "revoked"
 * (the seat was given a new invite since) or "failed" (no answer; try later).
 */
async function signInWithKeptSeat() {
  const seat = loadSeat(matchId, player);
  if (seat && seat.revoked_at) return "revoked";
  if (!seat || !seat.token) return "none";
  try {
    await signIn(matchId, seat.token);
    return "ok";
  } catch (e) {
    if (e.status !== 403) return "failed";
    forgetSeat(matchId, player);
    return "revoked";
  }
}

// A reload after signing in that finds the page still signed out means this browser did not
// keep the session cookie; say so instead of signing in and reloading forever.
const reloadMark = `dealerroom:reloaded:${matchId}:${player}`;

function reloadSignedIn() {
  sessionStorage.setItem(reloadMark, String(Date.now()));
  window.location.reload();
}

function cookieRefused() {
  const mark = Number(sessionStorage.getItem(reloadMark) || 0);
  sessionStorage.removeItem(reloadMark);
  return Date.now() - mark < 15000;
}

/** This browser's grant stopped working: sign in again with the kept credential, or say the seat is gone. */
async function seatRefused() {
  if (seatLost) return;
  seatLost = true;
  if (await signInWithKeptSeat() === "ok") {
    seatLost = false;
    return;
  }
  clearInterval(timer);
  for (const id of ["view-panel", "step-panel", "seat-panel", "backup-banner"]) $(id).hidden = true;
  const lost = $("seat-lost");
  lost.hidden = false;
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

/** Not signed in: claim with the invite, sign in with a credential link or the kept seat. */
async function openSeat() {
  const message = $("sign-in-message");
  const fragment = takeFragment(); // gone from the address bar before anything else happens
  $("restore-file").addEventListener("change", () => restoreFromFile($("restore-file"), $("restore-result")));
  if (cookieRefused()) {
    say(message, MESSAGES.noCookie, "bad");
  } else if (fragment && fragment.invite !== undefined) {
    say(message, MESSAGES.claiming, "info");
    try {
      await claimSeat(matchId, player, fragment.invite);
      reloadSignedIn();
      return;
    } catch (e) {
      if (e.status === 409 && await signInWithKeptSeat() === "ok") {
        reloadSignedIn(); // this browser claimed the seat earlier
        return;
      }
      const text = { 409: MESSAGES.claimed, 403: MESSAGES.badInvite }[e.status] || e.message;
      say(message, text, "bad");
    }
  } else if (fragment && fragment.token) {
    try {
      await signIn(matchId, fragment.token);
      const seat = loadSeat(matchId, player);
      if (!seat || seat.token !== fragment.token) {
        // A credential from elsewhere (a script's claim): keep it; any key kept here stays.
        const { revoked_at: _, ...kept } = seat || {};
        saveSeat(matchId, player, { ...kept, token: fragment.token, backed_up: Boolean(kept.backed_up) });
      }
      reloadSignedIn();
      return;
    } catch (e) {
      say(message, e.status === 403 ? MESSAGES.badLink : e.message, "bad");
    }
  } else {
    const kept = await signInWithKeptSeat();
    if (kept === "ok") {
      reloadSignedIn();
      return;
    }
    say(message, kept === "revoked" ? MESSAGES.lost : MESSAGES.needLink, kept === "revoked" ? "bad" : undefined);
  }
  $("restore-panel").hidden = false;
}

// ------------------------------------------------------------------ receipts

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
    button.setAttribute("aria-label", `Download the receipt of step ${data.step}, event ${receipt.leaf_index}`);
    button.addEventListener("click", () => download(`receipt-${matchId.slice(0, 8)}-step${data.step}-${player}.json`, receipt));
    item.append(`step ${data.step}: commitment ${data.commitment.slice(0, 12)}… (event ${receipt.leaf_index}) `, button);
    list.appendChild(item);
  }
}

// ------------------------------------------------------------------ the step

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

/**
 * The game's own controls: the module its presentation folder serves (web/games/<game>/static/
 * controls.js), with `pickChoices(me, status)` and `decisionChoices(decision, status)`, each
 * optional and returning [[label, payload], ...]. A game without one is played by JSON alone.
 */
async function loadControls() {
  const url = room.dataset.controls;
  if (!url) return {};
  try {
    return await import(url);
  } catch (e) {
    return {}; // the JSON fields still work without quick choices
  }
}

function pickChoices(me) {
  return controls.pickChoices ? controls.pickChoices(me, status) : [];
}

function decisionChoices(decision) {
  return controls.decisionChoices ? controls.decisionChoices(decision, status) : [];
}

function setPayload(value) {
  $("payload").value = JSON.stringify(value);
  prepared = null;
  say($("local-commitment"), "—");
  say($("local-salt"), "—");
  $("send").disabled = true;
}

async function refresh() {
  if (seatLost) return;
  try {
    status = await api("GET", base);
    const me = await asPlayer("GET", mine);
    render(me);
    renderSeat();
  } catch (e) {
    if (!seatLost) say($("step-info"), e.message, "bad");
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

/** The pick last sent (or being sent) in a step: {payload (canonical JSON), salt, commitment}. */
function lastSent(step) {
  try {
    return JSON.parse(localStorage.getItem(storeKey("sent", step)));
  } catch (e) {
    return null;
  }
}

$("compute")?.addEventListener("click", async () => {
  let payload;
  let canonical;
  try {
    payload = JSON.parse($("payload").value);
    canonical = canonicalJSON(payload);
  } catch (e) {
    say($("pick-result"), `your pick is not JSON: ${e.message}`, "bad");
    return;
  }
  const step = status.step.number;
  // A new pick gets a fresh salt; the very pick last sent keeps its salt, so sending it
  // again is an identical re-send the service answers as unchanged.
  const last = lastSent(step);
  const salt = last && last.payload === canonical ? last.salt : randomSaltHex();
  let digest;
  try {
    digest = await commitment(matchId, step, player, payload, salt);
  } catch (e) {
    say($("pick-result"), `your browser could not compute the commitment: ${e.message}`, "bad");
    return;
  }
  prepared = { step, payload, canonical, salt, commitment: digest };
  say($("local-commitment"), digest);
  say($("local-salt"), salt);
  say($("pick-result"), "Check the commitment, then send it.", "info");
  $("send").disabled = false;
});

function pickAnswer(answer, hadPick) {
  const event = answer.receipt ? ` (event ${answer.receipt.leaf_index})` : "";
  if (answer.unchanged) {
    return [`Sealed, unchanged: the service already held exactly this pick, and your commitment ${answer.commitment.slice(0, 12)}… stands${event}. Your receipt is below.`, "ok"];
  }
  if (answer.commitment !== prepared.commitment) {
    return [`The service recorded commitment ${answer.commitment.slice(0, 12)}…, not the ${prepared.commitment.slice(0, 12)}… your browser computed. Keep this page open and tell the host.`, "bad"];
  }
  const replaced = hadPick ? " This replaced your earlier pick for this step." : "";
  return [`Sealed.${replaced} The log holds your commitment as event ${answer.receipt.leaf_index}; your receipt is below. You may amend until the step is sealed.`, "ok"];
}

$("pick-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!prepared) return;
  const { step, payload, salt, canonical } = prepared;
  const state = keyState();
  if (state === "missing") {
    say($("pick-result"), "This browser does not hold your seat's signing key, so it cannot sign your pick: restore your seat from its backup file (below), then send again.", "bad");
    $("restore-details").open = true;
    return;
  }
  const earlier = lastSent(step);
  const hadPick = Boolean(earlier && earlier.recorded) || status.step.submitted.includes(player);
  $("send").disabled = true;
  try {
    const body = { step };
    if (state === "signed") {
      body.signature = await signCommitment(matchId, step, player, loadSeat(matchId, player), prepared.commitment);
    }
    localStorage.setItem(storeKey("sent", step), JSON.stringify({ payload: canonical, salt, commitment: prepared.commitment }));
    let answer;
    if (custody === "self") {
      answer = await asPlayer("POST", `${mine}/commitments`, { ...body, commitment: prepared.commitment });
      localStorage.setItem(storeKey("opening", step), JSON.stringify({ payload, salt }));
    } else {
      answer = await asPlayer("POST", `${mine}/submissions`, { ...body, payload, salt });
    }
    localStorage.setItem(storeKey("sent", step), JSON.stringify({ payload: canonical, salt, commitment: answer.commitment, recorded: true }));
    const [text, kind] = pickAnswer(answer, hadPick);
    say($("pick-result"), text, kind);
    if (answer.receipt) {
      localStorage.setItem(storeKey("receipt", `${step}:${answer.receipt.leaf_index}`), JSON.stringify(answer.receipt));
      $("receipt-details").hidden = false;
      $("receipt").textContent = JSON.stringify(answer.receipt, null, 1);
    }
    prepared = null;
  } catch (e) {
    say($("pick-result"), e.status === 0 ? `${e.message} Sending the same pick again is safe.` : e.message, "bad");
    $("send").disabled = false; // the same pick, the same salt: a re-send is answered as unchanged
  }
  refresh();
});

$("open-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const step = status.step.number;
  const { payload, salt } = JSON.parse(localStorage.getItem(storeKey("opening", step)));
  try {
    await asPlayer("POST", `${mine}/openings`, { payload, salt });
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
    await asPlayer("POST", `${mine}/decisions`, { payload });
    say($("decision-result"), "Decided.", "ok");
  } catch (e) {
    say($("decision-result"), e.message, "bad");
  }
  refresh();
});

if (room.dataset.signedIn === "yes") {
  sessionStorage.removeItem(reloadMark);
  $("backup")?.addEventListener("click", () => saveBackup($("backup-result")));
  $("backup-again")?.addEventListener("click", () => saveBackup($("backup-again-result")));
  $("restore-file-here")?.addEventListener("change", () => restoreFromFile($("restore-file-here"), $("restore-result-here")));
  renderSeat();
  controls = await loadControls();
  refresh();
  timer = setInterval(refresh, 2000);
} else {
  openSeat();
}
