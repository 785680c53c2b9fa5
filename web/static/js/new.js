// Host a match: a form built from the game's typed options (GET /api/games), then the links
// of the match created (./new-created.js). The host never holds a player's credential: each
// player claims their own seat with their invite.
//
// The players: a count within what the game takes and the names in seat order, kept in
// step with each other; the game's suggested names first, then more names of the same kind.
// Errors show beside the field they are about, the API's included (its 400 messages name it).
import { api, say } from "./common.js";
import {
  FieldError, errorSlot, fieldOf, names, optionsFromControls, renderOptions, rerenderPerPlayer,
} from "./new-options.js";
import { forgetKept, keptMatch, showCreated } from "./new-created.js";

const $ = (id) => document.getElementById(id);
const form = $("new-match");
const gameSelect = $("game");
const playersBox = $("players");
const countBox = $("player-count");
const controlsBox = $("option-controls");
const errorBox = $("new-error");
const games = {};
const MORE_NAMES = ["ana", "ben", "cai", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lou",
  "max", "nia", "oto", "pia", "quin", "ray", "sue", "tom", "uma", "val", "wes", "xia", "yan", "zoe"];
const MAX_NAME = 80;
let suggestedNow = names(playersBox.value).join(", "); // the players the form last suggested
let kept = {}; // option name -> {player: typed value}, kept while the players change
let remembered = []; // every name typed, so fewer seats and then more get the same names back
// A game whose options the host designs (an option of kind "design") brings its own editor,
// /games/<game>/static/designer.js, which takes the place of the typed options.
let designer = null; // { game, editor }: the loaded editor and the game it edits
const designed = (g) => Boolean(g && (g.options || []).some((o) => o.kind === "design"));
const designing = () => designed(game()) && designer !== null && designer.game === game().game;

async function showDesigner(g) {
  if (!designer || designer.game !== g.game) {
    const { Designer } = await import(`/games/${encodeURIComponent(g.game)}/static/designer.js`);
    designer = { game: g.game, editor: new Designer($("designer"), () => names(playersBox.value)) };
  }
  if (game() === g) designer.editor.start();
}

const game = () => games[gameSelect.value];

async function loadGames() {
  for (const g of await api("GET", "/api/games")) games[g.game] = g;
  const asked = new URLSearchParams(window.location.search).get("game");
  if (asked && games[asked]) gameSelect.value = asked;
  showGame();
}

function range(g) {
  const players = g.players || {};
  return [players.min || 1, players.max || 100];
}

/** Default names for ``count`` seats: the game's suggestion, then more of the same kind. */
function defaultNames(g, count, current = []) {
  const out = [...current];
  const pool = [...((g.players && g.players.suggested) || []), ...MORE_NAMES];
  for (const name of pool) {
    if (out.length >= count) break;
    if (!out.includes(name)) out.push(name);
  }
  for (let n = out.length + 1; out.length < count; n += 1) {
    if (!out.includes(`player ${n}`)) out.push(`player ${n}`);
  }
  return out.slice(0, count);
}

function showGame() {
  const g = game();
  if (!g) return;
  const revealed = designed(g) ? "" : ` Picks are revealed ${g.disclosure === "at-end" ? "only when the match ends" : "when each step resolves"}.`;
  say($("game-doc"), `${g.doc}${revealed}`);
  const rules = $("rules-link");
  rules.href = `/games/${encodeURIComponent(g.game)}/rules`;
  rules.textContent = `Rules of ${g.display_name || g.game}`;
  const [fewest, most] = range(g);
  countBox.min = String(fewest);
  countBox.max = String(most);
  countBox.readOnly = fewest === most; // a duel: two seats, no choice
  // The suggestion replaces only an empty box or the previous suggestion, never typed names.
  const current = names(playersBox.value).join(", ");
  const suggested = (g.players && g.players.suggested) || defaultNames(g, fewest);
  if (current === "" || current === suggestedNow) {
    suggestedNow = suggested.join(", ");
    playersBox.value = suggestedNow;
  }
  remembered = names(playersBox.value);
  countBox.value = String(remembered.length);
  const words = fewest === most ? `exactly ${fewest}` : `${fewest} to ${most}`;
  say($("players-help"), `${g.display_name || g.game} takes ${words} players.`);
  kept = {};
  const shown = renderOptions(g, controlsBox, names(playersBox.value), kept);
  controlsBox.hidden = shown === 0;
  $("no-options").hidden = shown !== 0;
  clearErrors();
  $("options-group").hidden = designed(g);
  $("designer").hidden = !designed(g);
  if (designed(g)) {
    showDesigner(g).catch(() => showError("options", "The game's designer could not be loaded; reload the page."));
  }
}

/** The number of seats changed: names are added or dropped at the end (``quiet``: typing). */
function countChanged(quiet) {
  const g = game();
  if (!g) return; // the games' options have not arrived yet
  const count = Number(countBox.value);
  const [fewest, most] = range(g);
  if (!Number.isInteger(count) || count < fewest || count > most) {
    if (!quiet) showError("players", `${g.display_name} takes ${fewest === most ? `exactly ${fewest}` : `${fewest} to ${most}`} players.`);
    return;
  }
  showError("players", "");
  const now = names(playersBox.value);
  const typed = now.length >= remembered.length ? now : [...now, ...remembered.slice(now.length)];
  const wasSuggested = names(playersBox.value).join(", ") === suggestedNow;
  const list = defaultNames(g, count, typed.slice(0, count));
  remembered = typed.length > list.length ? typed : list;
  playersBox.value = list.join(", ");
  if (wasSuggested) suggestedNow = playersBox.value;
  rerenderPerPlayer(g, controlsBox, list, kept);
  if (designing()) designer.editor.playersChanged();
}

function namesChanged() {
  const list = names(playersBox.value);
  remembered = list;
  countBox.value = String(list.length);
  showError("players", "");
  if (game()) rerenderPerPlayer(game(), controlsBox, list, kept); // else drawn once they arrive
  if (designing()) designer.editor.playersChanged();
}

// ---------------------------------------------------------------- errors beside the field

function slotOf(field) {
  let slot = $(`${field}-error`);
  if (!slot) {
    const input = $(field);
    if (!input) return null;
    slot = errorSlot(field);
    input.after(slot);
  }
  return slot;
}

function showError(field, message) {
  const slot = slotOf(field);
  const input = $(field);
  if (slot) say(slot, message, message ? "bad" : undefined);
  if (input) {
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  if (message && input) {
    const details = input.closest("details");
    if (details) details.open = true;
  }
}

function clearErrors() {
  for (const slot of form.querySelectorAll(".field-error")) say(slot, "");
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  say(errorBox, "");
}

/** Show an error beside its field and under the button; focus the field. */
function fail(field, message) {
  const where = field && $(field) ? field : null;
  if (where) {
    showError(where, message);
    const input = $(where);
    (input.matches("table") ? input.querySelector("input") : input)?.focus();
  }
  say(errorBox, `The match was not created: ${message}`, "bad");
}

// ---------------------------------------------------------------- what the form says

function checkPlayers(g, players) {
  const [fewest, most] = range(g);
  if (players.length < fewest || players.length > most) {
    const words = fewest === most ? `exactly ${fewest}` : `${fewest} to ${most}`;
    throw new FieldError("players", `${g.display_name} takes ${words} players, not ${players.length}.`);
  }
  const seen = new Set();
  for (const player of players) {
    if (seen.has(player)) throw new FieldError("players", `The name "${player}" appears twice; give each player their own name.`);
    if (player.length > MAX_NAME) throw new FieldError("players", `The name "${player.slice(0, 20)}…" is longer than ${MAX_NAME} characters.`);
    seen.add(player);
  }
}

function extraOptions() {
  const text = $("options").value.trim();
  if (text === "") return {};
  let extra;
  try {
    extra = JSON.parse(text);
  } catch (e) {
    throw new FieldError("options", `The options JSON is not JSON: ${e.message}.`);
  }
  if (extra === null || typeof extra !== "object" || Array.isArray(extra)) {
    throw new FieldError("options", "The options JSON must be an object, such as {\"start_points\": 50}.");
  }
  return extra;
}

function notifyTargets() {
  const box = $("notify");
  if (!box) return [];
  const targets = box.value.split("\n").map((s) => s.trim()).filter((s) => s);
  if (targets.length > 5) throw new FieldError("notify", "At most 5 places to post news to.");
  if (targets.some((t) => t.length > 500)) throw new FieldError("notify", "Each place to post news to is at most 500 characters.");
  return targets;
}

function body() {
  const g = game();
  const players = names(playersBox.value);
  checkPlayers(g, players);
  const name = $("match-name").value.trim();
  if (name.length > MAX_NAME) throw new FieldError("match-name", `The match name is at most ${MAX_NAME} characters.`);
  const custody = {};
  for (const p of names($("self-custody").value)) {
    if (!players.includes(p)) throw new FieldError("self-custody", `"${p}" is not one of the players.`);
    custody[p] = "self";
  }
  if (designed(g) && !designing()) throw new FieldError("options", "The game's designer is still loading; try again in a moment.");
  const options = designing() ? designer.editor.options() : { ...optionsFromControls(g), ...extraOptions() };
  const seconds = $("step-seconds").value;
  const made = {
    game: g.game,
    players,
    options,
    custody,
    name,
    auto_open: $("auto-open").checked,
    auto_seal: $("auto-seal").checked,
    step_seconds: seconds === "" ? null : Number(seconds),
    sign_in_as_host: true,
  };
  const notify = notifyTargets();
  if (notify.length > 0) made.notify = notify;
  return made;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  await ready; // a quick host may press Create before the games' options have arrived
  clearErrors();
  let sent;
  try {
    sent = body();
  } catch (e) {
    if (e instanceof FieldError) fail(e.field, e.message);
    else fail(null, e.message);
    return;
  }
  const button = $("create");
  button.disabled = true;
  say(errorBox, "Creating the match…", "info");
  try {
    const created = await api("POST", "/api/matches", sent);
    say(errorBox, "");
    const shown = game().display_name || sent.game;
    const next = sent.auto_open
      ? "The first step opens by itself as soon as every player has claimed their seat."
      : "Open the first step from the host console once the players are ready.";
    showCreated({ ...created, next, title: sent.name ? `${sent.name} (${shown})` : `${shown} for ${sent.players.join(", ")}` });
  } catch (e) {
    const about = designing() ? designer.editor.place(e.message) : fieldOf(e.message, game());
    fail(e.status === 400 ? about : null, e.message);
  } finally {
    button.disabled = false;
  }
});

function offerKept() {
  const kept = keptMatch();
  if (!kept) return;
  $("kept").hidden = false;
  say($("kept-name"), kept.title);
  $("kept-show").addEventListener("click", () => showCreated(kept));
  $("kept-forget").addEventListener("click", () => {
    forgetKept();
    $("kept").hidden = true;
  });
}

$("new-another").addEventListener("click", () => {
  $("created").hidden = true;
  form.hidden = false;
  offerKept();
  $("game").focus();
});
gameSelect.addEventListener("change", showGame);
playersBox.addEventListener("input", namesChanged);
countBox.addEventListener("change", () => countChanged(false));
countBox.addEventListener("input", () => countChanged(true));
offerKept();
const ready = loadGames().catch((e) => say(errorBox, e.message, "bad"));
