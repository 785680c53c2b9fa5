// The host's declaration in the console: when the rules wait on the host to declare a step's
// winners (status.step.decision: player "host", kind "declare"), the revealed picks are listed,
// each player with a toggle "winner ana", a note of up to 500 characters with a live count, and
// "Declare the winners" (POST .../declare {winners, note}). Shown until the decision's deadline
// passes; at the deadline the default applies (nobody wins).
import { countdown, say } from "./common.js";
import { names } from "./host-words.js";

const $ = (id) => document.getElementById(id);
const LONGEST_NOTE = 500;

const codePoints = (text) => [...text].length;

/** Whether the status waits on the host's declaration. */
export function declaring(status) {
  const decision = status.step && status.step.decision;
  return Boolean(!status.finished && !status.ended && decision && decision.player === "host" && decision.kind === "declare");
}

export class Declare {
  /** `act(button, method, url, body, did)` is the console's action runner (host.js). */
  constructor(base, act) {
    this.base = base;
    this.act = act;
    this.key = null; // the decision the form was built for: "step:index"
    this.winners = new Set();
    this.deadline = null;
    $("declare-note").addEventListener("input", () => this.update());
    $("declare-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    setInterval(() => this.tick(), 1000);
  }

  render(status, words) {
    const form = $("declare-form");
    const open = declaring(status) && countdown(status.step.decision.deadline) !== "passed";
    form.hidden = !open;
    if (!open) {
      this.key = null;
      return;
    }
    $("decision-words").hidden = true; // the form says it all
    const decision = status.step.decision;
    this.deadline = decision.deadline;
    const key = `${status.step.number}:${decision.index}`;
    if (key === this.key) {
      this.tick();
      return;
    }
    this.key = key;
    this.step = status.step.number;
    this.winners = new Set();
    $("declare-note").value = "";
    const round = decision.prompt && Number.isInteger(decision.prompt.round) ? decision.prompt.round : status.step.number;
    say($("declare-title"), `Declare the winners of round ${round}`);
    const picks = new Map((words.revealed || []).map((r) => [r.player, r.pick]));
    const items = status.players.map((player) => {
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "declare-toggle";
      toggle.setAttribute("aria-label", `winner ${player}`);
      toggle.setAttribute("aria-pressed", "false");
      toggle.textContent = "Winner";
      toggle.addEventListener("click", () => {
        if (this.winners.has(player)) this.winners.delete(player);
        else this.winners.add(player);
        toggle.setAttribute("aria-pressed", String(this.winners.has(player)));
        toggle.textContent = this.winners.has(player) ? "✓ Winner" : "Winner";
        this.update();
      });
      const who = document.createElement("strong");
      who.textContent = player;
      const pick = document.createElement("span");
      pick.className = "declare-pick";
      pick.textContent = picks.get(player) || "sent nothing";
      const text = document.createElement("span");
      text.className = "declare-who";
      text.append(who, ": ", pick);
      const item = document.createElement("li");
      item.append(text, toggle);
      return item;
    });
    $("declare-picks").replaceChildren(...items);
    this.update();
  }

  /** The chosen winners in seat order. */
  chosen() {
    return [...document.querySelectorAll("#declare-picks .declare-toggle")]
      .filter((b) => b.getAttribute("aria-pressed") === "true")
      .map((b) => b.getAttribute("aria-label").replace(/^winner /, ""));
  }

  update() {
    const count = codePoints($("declare-note").value);
    const long = count > LONGEST_NOTE;
    say($("declare-count"), `${count} of ${LONGEST_NOTE} characters`, long ? "bad" : undefined);
    const winners = this.chosen();
    say($("declare-what"), winners.length
      ? `You will declare ${names(winners)} ${winners.length === 1 ? "the winner" : "the winners"}.`
      : "You will declare that nobody wins this round.");
    $("declare-button").disabled = long;
    this.tick();
  }

  tick() {
    if (!this.key) return;
    const left = countdown(this.deadline);
    say($("declare-deadline"), this.deadline ? `Declare before the deadline (${left}); after it, nobody wins the round.` : "");
  }

  send() {
    const note = $("declare-note").value.trim();
    if (codePoints(note) > LONGEST_NOTE) return;
    const winners = this.chosen();
    const step = this.step;
    this.act($("declare-button"), "POST", `${this.base}/declare`, { winners, note }, () =>
      winners.length
        ? `You declared ${names(winners)} ${winners.length === 1 ? "the winner" : "the winners"} of step ${step}.`
        : `You declared that nobody wins step ${step}.`);
  }
}
