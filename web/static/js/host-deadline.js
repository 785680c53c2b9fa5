// The deadline of a step the host opens from the console: presets (none, 30 s, 1, 5, 60 min,
// 24 h) or any number of seconds. It starts as the match's own step deadline and is then
// remembered for this match in this browser (localStorage), so a reload keeps it.
import { say } from "./common.js";
import { deadlineWords } from "./host-words.js";

const MOST = 7 * 24 * 3600; // the API takes up to a week

export class Deadline {
  /**
   * @param {string} matchId the match (the remembered choice is per match)
   * @param {() => void} onChange called whenever the choice changes
   */
  constructor(matchId, onChange) {
    this.key = `dealerroom:host:deadline:${matchId}`;
    this.input = document.getElementById("seconds");
    this.words = document.getElementById("deadline-words");
    this.presets = [...document.querySelectorAll("#presets .preset")];
    this.onChange = onChange;
    this.started = false;
    for (const button of this.presets) {
      button.addEventListener("click", () => this.set(button.dataset.seconds === "" ? null : Number(button.dataset.seconds)));
    }
    this.input.addEventListener("input", () => this.changed());
  }

  /** The first time the match's status is known: the remembered choice, else the match's own. */
  start(stepSeconds) {
    if (this.started) return;
    this.started = true;
    let remembered;
    try {
      remembered = localStorage.getItem(this.key);
    } catch (e) {
      remembered = null;
    }
    if (remembered === "none") this.set(null, false);
    else if (remembered && /^\d+$/.test(remembered)) this.set(Number(remembered), false);
    else this.set(stepSeconds ?? null, false);
  }

  set(seconds, remember = true) {
    this.input.value = seconds === null ? "" : String(seconds);
    this.changed(remember);
  }

  /** The chosen seconds, null for no deadline, NaN when what is typed is not a deadline. */
  get seconds() {
    const raw = this.input.value.trim();
    if (raw === "") return null;
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1 && n <= MOST ? n : NaN;
  }

  /** The choice in words: "a deadline of 5 minutes", "no deadline". */
  get phrase() {
    return Number.isNaN(this.seconds) ? "" : deadlineWords(this.seconds);
  }

  changed(remember = true) {
    const seconds = this.seconds;
    for (const button of this.presets) {
      const mine = button.dataset.seconds === "" ? null : Number(button.dataset.seconds);
      button.setAttribute("aria-pressed", String(mine === seconds));
    }
    if (Number.isNaN(seconds)) {
      say(this.words, "A deadline is a whole number of seconds from 1 to 604800 (a week), or none.", "bad");
    } else {
      say(this.words, `Steps you open here get ${this.phrase}. This browser remembers it for this match.`);
      if (remember) {
        try {
          localStorage.setItem(this.key, seconds === null ? "none" : String(seconds));
        } catch (e) {
          // A browser that keeps nothing: the choice lasts until the page is left.
        }
      }
    }
    this.onChange();
  }
}
