// Host a match: create it through the API, then show the host link and each player's
// one-time invite link once. The host never holds a player's credential: each player claims
// their own seat with their invite.
//
// The option controls are built from the game's typed options (GET /api/games): a checkbox,
// a number, a choice, a list of names or a number per player, each with its description.
// An option left empty is left out, so the server fills in the game's default.
import { api, say, enableCopy, copyButton } from "./common.js";

const form = document.getElementById("new-match");
const gameSelect = document.getElementById("game");
const playersBox = document.getElementById("players");
const controlsBox = document.getElementById("option-controls");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("new-error");
const games = {};
let suggestedNow = names(playersBox.value).join(", "); // the players the form last suggested
let perPlayer = {}; // option name -> {player: typed value}, kept while the players change

async function loadGames() {
  for (const g of await api("GET", "/api/games")) games[g.game] = g;
  showGame();
}

function showGame() {
  const g = games[gameSelect.value];
  if (!g) return;
  say(document.getElementById("game-doc"), `${g.doc} Picks are disclosed ${g.disclosure === "at-end" ? "when the match ends" : "when each step resolves"}.`);
  const players = g.players || {};
  // The suggestion replaces only an empty box or the previous suggestion, never typed names.
  const current = names(playersBox.value).join(", ");
  if (players.suggested && (current === "" || current === suggestedNow)) {
    suggestedNow = players.suggested.join(", ");
    playersBox.value = suggestedNow;
  }
  const range = players.min === players.max ? `exactly ${players.min}` : `${players.min} to ${players.max}`;
  say(document.getElementById("players-help"), players.min ? `${g.display_name || g.game} takes ${range} players.` : "");
  perPlayer = {};
  renderOptions(g);
}

function title(name) {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function help(option, id) {
  const p = document.createElement("p");
  p.className = "muted small help";
  p.id = `${id}-help`;
  p.textContent = option.description.charAt(0).toUpperCase() + option.description.slice(1) + ".";
  return p;
}

function control(option) {
  const id = `opt-${option.name}`;
  const wrap = document.createElement("div");
  wrap.className = "option";
  wrap.dataset.option = option.name;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = title(option.name);
  let input;
  if (option.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = option.default === true;
    label.className = "check";
    label.prepend(input);
    input.id = id;
    input.setAttribute("aria-describedby", `${id}-help`);
    wrap.append(label, help(option, id));
    return wrap;
  }
  if (option.kind === "integer") {
    input = document.createElement("input");
    input.type = "number";
    input.step = "1";
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
    if (option.default !== null) input.value = String(option.default);
  } else if (option.kind === "choice") {
    input = document.createElement("select");
    for (const choice of option.choices) {
      const item = document.createElement("option");
      item.value = choice === null ? "" : String(choice);
      item.textContent = choice === null ? "none" : String(choice);
      item.selected = choice === option.default;
      input.appendChild(item);
    }
  } else if (option.kind === "names") {
    input = document.createElement("input");
    input.type = "text";
    input.autocomplete = "off";
    if (Array.isArray(option.default)) input.value = option.default.join(", ");
    label.textContent += option.filled && option.default !== null ? " (comma-separated)" : " (comma-separated, optional)";
  } else if (option.kind === "per-player-integer") {
    return perPlayerControl(option, id, wrap);
  } else {
    return null; // a kind this page does not know: the JSON box still takes it
  }
  input.id = id;
  input.setAttribute("aria-describedby", `${id}-help`);
  wrap.append(label, input, help(option, id));
  return wrap;
}

function perPlayerControl(option, id, wrap) {
  const fieldset = document.createElement("fieldset");
  fieldset.className = "per-player";
  fieldset.setAttribute("aria-describedby", `${id}-help`);
  const legend = document.createElement("legend");
  legend.textContent = `${title(option.name)} (one per player)`;
  const table = document.createElement("table");
  table.className = "per-player";
  table.id = id;
  fieldset.append(legend, table);
  wrap.append(fieldset, help(option, id));
  wrap.dataset.perPlayer = "1";
  const kept = perPlayer[option.name] || (perPlayer[option.name] = { ...(option.default || {}) });
  for (const [n, player] of names(playersBox.value).entries()) {
    const row = table.insertRow();
    const head = document.createElement("th");
    head.scope = "row";
    const label = document.createElement("label");
    label.htmlFor = `${id}-${n}`;
    label.textContent = player;
    head.appendChild(label);
    const cell = row.insertCell();
    row.prepend(head);
    const input = document.createElement("input");
    input.type = "number";
    input.step = "1";
    input.id = `${id}-${n}`;
    input.dataset.player = player;
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
    if (kept[player] !== undefined && kept[player] !== null) input.value = String(kept[player]);
    input.addEventListener("input", () => { kept[player] = input.value === "" ? undefined : input.value; });
    cell.appendChild(input);
  }
  return wrap;
}

function renderOptions(g) {
  controlsBox.replaceChildren();
  for (const option of g.options || []) {
    const item = control(option);
    if (item) controlsBox.appendChild(item);
  }
  controlsBox.hidden = controlsBox.children.length === 0;
  document.getElementById("no-options").hidden = controlsBox.children.length !== 0;
}

function whole(text, option) {
  const value = Number(text);
  if (!Number.isInteger(value)) throw new Error(`${title(option.name)} must be a whole number`);
  return value;
}

// The options object the controls say; an empty control is left out (the server's default).
function optionsFromControls(g) {
  const options = {};
  for (const option of g.options || []) {
    const input = document.getElementById(`opt-${option.name}`);
    if (!input) continue;
    if (option.kind === "bool") {
      options[option.name] = input.checked;
    } else if (option.kind === "integer") {
      if (input.value.trim() !== "") options[option.name] = whole(input.value, option);
    } else if (option.kind === "choice") {
      const choice = option.choices.find((c) => (c === null ? "" : String(c)) === input.value);
      if (choice !== null && choice !== undefined) options[option.name] = choice;
      else if (option.default !== null) options[option.name] = null;
    } else if (option.kind === "names") {
      const list = names(input.value);
      if (list.length > 0) options[option.name] = list;
    } else if (option.kind === "per-player-integer") {
      const values = {};
      for (const cell of input.querySelectorAll("input[data-player]")) {
        if (cell.value.trim() !== "") values[cell.dataset.player] = whole(cell.value, option);
      }
      if (Object.keys(values).length > 0) options[option.name] = values;
    }
  }
  return options;
}

function names(text) {
  return text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

function rerenderPerPlayer() {
  const g = games[gameSelect.value];
  if (!g) return;
  for (const option of g.options || []) {
    if (option.kind !== "per-player-integer") continue;
    const old = controlsBox.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (old) old.replaceWith(control(option));
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say(errorBox, "");
  const g = games[gameSelect.value];
  let options;
  try {
    options = g ? optionsFromControls(g) : {};
  } catch (e) {
    say(errorBox, e.message, "bad");
    return;
  }
  if (optionsBox.value.trim() !== "") {
    let extra;
    try {
      extra = JSON.parse(optionsBox.value);
    } catch (e) {
      say(errorBox, `the options JSON is not JSON: ${e.message}`, "bad");
      return;
    }
    if (extra === null || typeof extra !== "object" || Array.isArray(extra)) {
      say(errorBox, "the options JSON must be an object", "bad");
      return;
    }
    Object.assign(options, extra);
  }
  const players = names(playersBox.value);
  const custody = {};
  for (const p of names(document.getElementById("self-custody").value)) custody[p] = "self";
  try {
    const created = await api("POST", "/api/matches", {
      game: gameSelect.value, players, options, custody, sign_in_as_host: true,
    });
    showCreated(created);
  } catch (e) {
    say(errorBox, e.message, "bad");
  }
});

function showCreated(created) {
  form.hidden = true;
  const section = document.getElementById("created");
  const hostLink = document.getElementById("host-link");
  hostLink.href = created.links.host;
  const hostUrl = document.getElementById("host-url");
  hostUrl.textContent = created.links.host;
  hostUrl.dataset.copy = created.links.host;
  document.getElementById("copy-host").dataset.copy = created.links.host;
  const list = document.getElementById("player-links");
  const all = [];
  for (const [player, url] of Object.entries(created.links.players)) {
    const item = document.createElement("li");
    const name = document.createElement("strong");
    name.textContent = player;
    const link = document.createElement("a");
    link.href = url;
    link.textContent = "take this seat here";
    link.target = "_blank";
    link.rel = "noopener";
    link.className = "player-link";
    link.dataset.player = player;
    link.setAttribute("aria-label", `Take ${player}'s seat in this browser`);
    link.title = "Opening the link claims the seat: only do this to play this seat yourself.";
    const code = document.createElement("code");
    code.className = "copy link-text";
    code.id = `invite-${list.children.length}`;
    code.textContent = url;
    code.dataset.copy = url;
    const button = copyButton(url, `Copy ${player}'s invite link`);
    button.dataset.copyShows = code.id;
    const head = document.createElement("div");
    head.className = "invite-head";
    head.append(name, " ", link, " ", button);
    item.append(head, code);
    list.appendChild(item);
    all.push(`${player}: ${url}`);
  }
  const copyAll = document.getElementById("copy-all");
  copyAll.dataset.copy = all.join("\n") + "\n";
  const timeline = document.getElementById("timeline-link");
  timeline.href = created.links.timeline;
  timeline.textContent = created.links.timeline;
  section.hidden = false;
  enableCopy(section);
}

gameSelect.addEventListener("change", showGame);
playersBox.addEventListener("input", rerenderPerPlayer);
loadGames().catch((e) => say(errorBox, e.message, "bad"));
