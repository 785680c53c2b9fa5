// The host console: the game's picture, where the match stands, the scores, how the match runs
// itself, and the host's actions, each saying in words what it will do and then what it did
// (GET .../host/view gives the table and the game's words). The seats and their invites are in
// host-seats.js, the deadline of a step the host opens in host-deadline.js, ending a match
// early in host-end.js, a declaration of winners the rules ask of the host in host-declare.js.
import { api, say, countdown, startPrivatePage } from "./common.js";
import { Declare } from "./host-declare.js";
import { Deadline } from "./host-deadline.js";
import { EndEarly } from "./host-end.js";
import { Seats } from "./host-seats.js";
import { names } from "./host-words.js";

const host = document.getElementById("host");
const matchId = host.dataset.matchId;
const base = `/api/matches/${matchId}`;
const $ = (id) => document.getElementById(id);

let view = null; // the latest answer of GET .../host/view
let shownSize = -1; // the log size the picture on the page was drawn at
let busy = false; // an action is under way: its button stays disabled

function list(element, lines) {
  element.replaceChildren(
    ...(lines || []).map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }),
  );
}

function show(element, visible) {
  element.hidden = !visible;
}

function over(status) {
  return Boolean(status.finished || status.ended);
}

function canOpen(status) {
  return !over(status) && (!status.step || status.step.status === "resolved");
}

function nextStep(status) {
  return status.step ? status.step.number + 1 : 1;
}

// ---------------------------------------------------------------------- what is shown

function banner(status, words) {
  let text = words.now;
  if (status.ended) text = words.ended || "The match was ended early.";
  else if (status.finished) text = `Finished: ${(words.result || ["the match is over."])[0]}`;
  say($("host-status"), text);
  $("host-status").classList.toggle("banner-done", over(status));
}

function picture(data) {
  if (data.log_size === shownSize) return;
  shownSize = data.log_size;
  const parsed = new DOMParser().parseFromString(data.picture, "image/svg+xml").documentElement;
  if (parsed.nodeName !== "svg") return;
  const drawing = document.importNode(parsed, true);
  drawing.classList.add("host-drawing");
  $("host-picture").replaceChildren(drawing);
}

function table(status, words) {
  const step = status.step;
  const where = [step && !over(status) ? `Step ${step.number}` : "", words.where].filter(Boolean).join(" · ");
  say($("host-where"), where);
  say($("host-scores"), words.scores || "");
  const last = words.last_step;
  show($("last-step"), Boolean(last && last.lines.length));
  if (last) {
    say($("last-step-title"), `What step ${last.number} did`);
    list($("last-step-lines"), last.lines.slice(1)); // the first line names the step again
  }
  show($("result-panel"), over(status));
  say($("ended-words"), words.ended || "");
  list($("result-words"), words.result || []);
}

function deadlineLine(status) {
  const step = status.step;
  let text = "";
  if (step && !over(status) && step.status === "open") {
    text = step.deadline
      ? `Step ${step.number}'s deadline: ${countdown(step.deadline)}.`
      : `Step ${step.number} has no deadline: it is sealed when everyone has sent${view.settings.auto_seal ? "" : " and you seal it"}, or when you seal it now.`;
  } else if (step && step.decision && !over(status)) {
    const d = step.decision;
    const whose = d.player === "host" ? "Your decision" : `${d.player}'s decision`;
    text = d.deadline ? `${whose}: ${countdown(d.deadline)}.` : `${whose} has no deadline.`;
  }
  say($("deadline-line"), text);
  show($("deadline-line"), Boolean(text));
}

function openForm(status) {
  const form = $("open-step");
  show(form, canOpen(status));
  if (form.hidden) return;
  const phrase = deadline.phrase;
  const button = $("open-step-button");
  button.textContent = phrase ? `Open step ${nextStep(status)} now, with ${phrase}` : `Open step ${nextStep(status)} now`;
  button.disabled = busy || !phrase;
  let note = "";
  if (view.settings.auto_open) {
    const seats = status.seats || {};
    const waiting = status.players.filter((p) => !(seats[p] && seats[p].claimed));
    if (!status.step && waiting.length) {
      note = `It opens by itself once every seat is claimed (${names(waiting)} ${waiting.length === 1 ? "has" : "have"} not yet claimed theirs); you can open it now.`;
    } else {
      note = "It opens by itself in a moment; you can open it now.";
    }
  }
  say($("open-note"), note);
}

function actions(status, words) {
  const live = !over(status);
  show($("seal"), live && Boolean(words.seal));
  say($("seal"), words.seal || "Seal now");
  show($("force-openings"), live && Boolean(words.openings));
  say($("force-openings"), words.openings || "End the opening window");
  const decision = live && status.step && status.step.decision;
  show($("decision-words"), Boolean(decision));
  say($("decision-words"), words.decision || "");
  show($("default-decision"), Boolean(decision));
  // Beside the host's own declaration form, the default (nobody wins) is the quiet way out.
  $("default-decision").classList.toggle("quiet", Boolean(decision) && decision.player === "host");
  say($("default-decision"), (words.default_decision && words.default_decision.will) || "Apply the default decision");
  for (const id of ["seal", "force-openings", "default-decision"]) $(id).disabled = busy;
  list($("host-settings"), words.settings);
}

function render(data) {
  view = data;
  const { status, words } = data;
  deadline.start(data.settings.step_seconds);
  banner(status, words);
  picture(data);
  table(status, words);
  deadlineLine(status);
  openForm(status);
  actions(status, words);
  seats.render(status);
  ending.render(status);
  declare.render(status, words);
}

async function refresh() {
  try {
    render(await api("GET", `${base}/host/view`));
  } catch (e) {
    say($("host-status"), e.message, "bad");
  }
}

// ---------------------------------------------------------------------- the host's actions

/** Do an action; say what it did (``did(answer)``) or why it could not. */
async function act(button, method, url, body, did) {
  if (busy) return;
  busy = true;
  button.disabled = true;
  try {
    const answer = await api(method, url, body);
    say($("host-result"), did(answer), "ok");
  } catch (e) {
    say($("host-result"), e.message, "bad");
  }
  busy = false;
  await refresh();
}

let deadline = null;
let seats = null;
let ending = null;
let declare = null;

/** The console's controls (only once signed in: before that the page has none). */
function wire() {
  deadline = new Deadline(matchId, () => view && openForm(view.status));
  seats = new Seats(base, refresh);
  ending = new EndEarly(base, refresh);
  declare = new Declare(base, act);
  $("open-step").addEventListener("submit", (event) => {
    event.preventDefault();
    const seconds = deadline.seconds;
    if (Number.isNaN(seconds)) return;
    const phrase = deadline.phrase;
    const body = seconds === null ? {} : { seconds };
    const deal = $("deal").value.trim();
    if (deal) {
      try {
        body.deal = JSON.parse(deal);
      } catch (e) {
        say($("host-result"), "The deal cannot be read: write it as in the game's scenario files, or leave it empty for a fair deal.", "bad");
        return;
      }
    }
    act($("open-step-button"), "POST", `${base}/steps`, body, (answer) => {
      $("deal").value = "";
      return `Step ${answer.step} is open, with ${phrase}.`;
    });
  });

  $("seal").addEventListener("click", () => {
    const step = view.status.step;
    const missing = step.missing.slice();
    act($("seal"), "POST", `${base}/seal`, undefined, () =>
      missing.length
        ? `Step ${step.number} sealed: ${names(missing)} got the default.`
        : `Step ${step.number} sealed: everyone had sent their pick.`,
    );
  });

  $("force-openings").addEventListener("click", () => {
    const late = view.status.step.awaiting_openings.slice();
    act($("force-openings"), "POST", `${base}/openings/force`, undefined, () =>
      `The opening window is closed: ${names(late)} got the default.`,
    );
  });

  $("default-decision").addEventListener("click", () => {
    const words = view.words.default_decision;
    act($("default-decision"), "POST", `${base}/decisions/default`, undefined, () =>
      words ? words.did : "The default decision was applied.",
    );
  });
}

if (host.dataset.signedIn === "yes") wire();
startPrivatePage(host, refresh, "Open this page through the host's private link.");
