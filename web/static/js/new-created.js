// The view after a match is created: links that cannot be lost. Every invite with its own
// copy button and QR code (POST /api/qr), "copy all", a download of every link as a text file,
// the host's console link (opened in a new tab, once the host says the links are saved), and
// the links kept in this tab (sessionStorage) until it closes, so a reload shows them again.
import { enableCopy, copyButton, download, say } from "./common.js";

const KEPT = "dealerroom:new:created";
const $ = (id) => document.getElementById(id);

/** The match created in this tab, if its links are still kept. */
export function keptMatch() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    return kept && kept.links && kept.links.players ? kept : null;
  } catch (e) {
    return null;
  }
}

export function forgetKept() {
  try { sessionStorage.removeItem(KEPT); } catch (e) { /* storage off: nothing kept */ }
}

function keep(created) {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(created));
  } catch (e) { /* storage off: the links are on the page only */ }
}

/**
 * A link as text that breaks only at sensible points (after a "/" and before the "#" of
 * its private part), never inside a name or a token; a token too long for the box scrolls.
 */
export function linkText(element, url) {
  element.replaceChildren();
  for (const part of url.split(/(?<=\/)|(?=#)/)) {
    const piece = document.createElement("span");
    piece.className = "nobreak"; // a token's "-" is no place to break it
    piece.textContent = part;
    element.append(piece, document.createElement("wbr"));
  }
  element.dataset.copy = url;
}

/** The text file of every link: what the host keeps. */
export function linksText(created) {
  const lines = [
    `dealerroom match: ${created.title}`,
    `Match id: ${created.match_id}`,
    "",
    "Public timeline (anyone may follow it):",
    created.links.timeline,
    "",
    "Host console (yours alone: it runs the match; keep it private):",
    created.links.host,
    "",
    "Invite links (send each player their own; each works once, for that player only):",
  ];
  for (const [player, url] of Object.entries(created.links.players)) lines.push(`${player}: ${url}`);
  return lines.join("\n") + "\n";
}

function fileName(created) {
  const slug = created.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40);
  return `dealerroom-${slug || "match"}-links.txt`;
}

async function showQr(button, figure, player, url) {
  const open = figure.hidden;
  figure.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
  button.textContent = open ? "Hide QR code" : "Show QR code";
  if (!open || figure.dataset.loaded) return;
  const note = figure.querySelector("figcaption");
  say(note, "Drawing the QR code…");
  try {
    const answer = await fetch("/api/qr", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "image/svg+xml" },
      credentials: "same-origin",
      body: JSON.stringify({ text: url }),
    });
    if (!answer.ok) throw new Error(`the QR code could not be made (${answer.status})`);
    const svg = await answer.text();
    const img = document.createElement("img");
    img.alt = `QR code of ${player}'s invite link`;
    img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(svg)))}`;
    img.width = 200;
    img.height = 200;
    figure.prepend(img);
    figure.dataset.loaded = "yes";
    say(note, `${player} scans this with their phone's camera to take their seat.`);
  } catch (e) {
    say(note, `${e.message}; copy the link instead.`, "bad");
  }
}

function invite(list, n, player, url) {
  const item = document.createElement("li");
  item.dataset.player = player;
  const head = document.createElement("div");
  head.className = "invite-head";
  const name = document.createElement("strong");
  name.textContent = player;
  const code = document.createElement("code");
  code.className = "link-box";
  code.id = `invite-${n}`;
  linkText(code, url);
  const copy = copyButton(url, `Copy ${player}'s invite link`, "Copy link");
  copy.dataset.copyShows = code.id;
  const figure = document.createElement("figure");
  figure.className = "qr";
  figure.id = `qr-${n}`;
  figure.hidden = true;
  figure.appendChild(document.createElement("figcaption"));
  const qr = document.createElement("button");
  qr.type = "button";
  qr.className = "qr-toggle";
  qr.textContent = "Show QR code";
  qr.setAttribute("aria-expanded", "false");
  qr.setAttribute("aria-controls", figure.id);
  qr.setAttribute("aria-label", `Show the QR code of ${player}'s invite link`);
  qr.addEventListener("click", () => showQr(qr, figure, player, url));
  const take = document.createElement("a");
  take.href = url;
  take.textContent = "take this seat here";
  take.target = "_blank";
  take.rel = "noopener";
  take.className = "player-link small";
  take.dataset.player = player;
  take.setAttribute("aria-label", `Take ${player}'s seat in this browser`);
  take.title = "Opening the link claims the seat: only do this to play this seat yourself.";
  const buttons = document.createElement("span");
  buttons.className = "invite-actions";
  buttons.append(copy, qr);
  head.append(name, buttons);
  item.append(head, code, figure, take);
  list.appendChild(item);
}

function gateConsole() {
  const saved = $("links-saved");
  const link = $("host-link");
  const update = () => {
    link.setAttribute("aria-disabled", saved.checked ? "false" : "true");
    link.classList.toggle("disabled", !saved.checked);
    $("host-link-hint").hidden = saved.checked;
  };
  saved.addEventListener("change", update);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    if (!saved.checked) {
      say($("host-link-hint"), "First save the links (copy or download them) and tick \u201cI have saved the links\u201d: this page is the only place they are shown.", "bad");
      saved.focus();
      return;
    }
    // This browser holds the host's grant already (the match was made here signed in as
    // host): the console opens without its token, so no address bar ever shows it.
    window.open(link.href.split("#")[0], "_blank", "noopener");
  });
  update();
}

/** Show the created match's links (``created``: the API's answer, with ``title``). */
export function showCreated(created) {
  keep({ match_id: created.match_id, title: created.title, next: created.next, links: created.links });
  $("new-match").hidden = true;
  $("kept").hidden = true;
  const section = $("created");
  say($("created-title"), `Match created: ${created.title}`);
  say($("created-next"), created.next || "");
  linkText($("host-url"), created.links.host);
  $("copy-host").dataset.copy = created.links.host;
  $("host-link").href = created.links.host;
  const list = $("player-links");
  list.replaceChildren();
  const all = [];
  for (const [player, url] of Object.entries(created.links.players)) {
    invite(list, list.children.length, player, url);
    all.push(`${player}: ${url}`);
  }
  $("copy-all").dataset.copy = all.join("\n") + "\n";
  $("download-links").onclick = () => download(fileName(created), linksText(created), "text/plain;charset=utf-8");
  $("timeline-link").href = created.links.timeline;
  linkText($("timeline-link"), created.links.timeline);
  delete $("timeline-link").dataset.copy;
  section.hidden = false;
  enableCopy(section);
  if (!section.dataset.gated) {
    section.dataset.gated = "yes";
    gateConsole();
  }
  $("created-title").focus();
  window.scrollTo(0, 0);
}

