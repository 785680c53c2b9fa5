// Host a match: create it through the API, then show the host link and each player's
// one-time invite link once. The host never holds a player's credential: each player claims
// their own seat with their invite.
import { api, say, enableCopy, copyButton } from "./common.js";

const form = document.getElementById("new-match");
const gameSelect = document.getElementById("game");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("new-error");
let games = {};

async function loadGames() {
  for (const g of await api("GET", "/api/games")) games[g.game] = g;
  showGame();
}

function showGame() {
  const g = games[gameSelect.value];
  if (!g) return;
  say(document.getElementById("game-doc"), `${g.doc} Picks are disclosed ${g.disclosure === "at-end" ? "when the match ends" : "when each step resolves"}.`);
  optionsBox.value = JSON.stringify(g.default_options || {}, null, 1);
}

function names(text) {
  return text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say(errorBox, "");
  let options;
  try {
    options = JSON.parse(optionsBox.value || "{}");
  } catch (e) {
    say(errorBox, `the options are not JSON: ${e.message}`, "bad");
    return;
  }
  const players = names(document.getElementById("players").value);
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
loadGames().catch((e) => say(errorBox, e.message, "bad"));
