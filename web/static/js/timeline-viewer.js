// The timeline's replay viewer: step through a match's log in place, as on an analysis board.
//
// The page gives the toolbar (#stepper: links that work without scripts, the slider #seek,
// the play button), the moment (#moment: caption, picture, what changed; the fragment
// GET <page>/picture?at=N gives another) and the log (tr.event[data-seq] rows in
// tbody.group[data-resolved][data-round] groups, inside the scroll box #log-box).
// Stepping fetches the moment's fragment (each is kept, so going back costs nothing),
// highlights its row and keeps it in view inside the log's box, and writes ?at= into the
// address with history.replaceState (no new history entry per record).

import { sizePicture } from "./timeline-size.js";
import { showTimes } from "./timeline-time.js";

const PLAY_DELAY_MS = { record: 700, step: 1600 };
const KEPT_MOMENTS = 400;

const $ = (id) => document.getElementById(id);

function typing(target) {
  return target instanceof HTMLElement
    && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

export class Viewer {
  constructor(head) {
    this.head = head;
    this.last = Number(head.dataset.last);
    this.at = Number($("moment").dataset.at);
    this.moments = new Map([[this.at, $("moment").outerHTML]]);
    this.loading = new Map();
    this.playing = null;
    this.zoomed = false;
    this.scrolledByHand = false;
    this.base = window.location.pathname.replace(/\/+$/, "");
    this.box = $("log-box");
    this.status = $("viewer-status");
    this.controls = {
      first: $("go-first"), prevRound: $("go-prev-round"), prevStep: $("go-prev-step"),
      prev: $("go-prev"), play: $("play"), next: $("go-next"), nextStep: $("go-next-step"),
      nextRound: $("go-next-round"), last: $("go-last"), seek: $("seek"),
    };
  }

  /** Wire the controls, the keys and the log's rows; show the scripted controls. */
  start() {
    const c = this.controls;
    const moves = [
      [c.first, () => 0], [c.prevRound, () => this.stop("round", -1)],
      [c.prevStep, () => this.stop("step", -1)], [c.prev, () => this.at - 1],
      [c.next, () => this.at + 1], [c.nextStep, () => this.stop("step", 1)],
      [c.nextRound, () => this.stop("round", 1)], [c.last, () => this.last],
    ];
    for (const [control, target] of moves) {
      control.addEventListener("click", (event) => {
        event.preventDefault();
        this.pause();
        this.go(target());
      });
    }
    c.seek.hidden = false;
    c.seek.addEventListener("input", () => { this.pause(); this.go(Number(c.seek.value)); });
    c.play.hidden = false;
    c.play.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    $("play-by").closest("label").hidden = false;
    $("keys").hidden = false;
    document.addEventListener("keydown", (event) => this.key(event));
    $("timeline").addEventListener("click", (event) => this.clickLog(event));
    window.addEventListener("resize", () => { this.size(); this.fitLog(); });
    let fitting = false;
    window.addEventListener("scroll", () => {
      if (fitting) return;
      fitting = true;
      requestAnimationFrame(() => { fitting = false; this.fitLog(); });
    }, { passive: true });
    const zoom = $("zoom");
    zoom.hidden = false;
    zoom.addEventListener("click", () => {
      this.zoomed = !this.zoomed;
      zoom.setAttribute("aria-pressed", String(this.zoomed));
      zoom.textContent = this.zoomed ? "Fit the picture to the screen" : "Enlarge the picture";
      this.size();
    });
    // The log's rows grow as scripts mark them and times are written: keep the current
    // record in view unless the reader has scrolled the log since.
    if (this.box) {
      for (const name of ["wheel", "touchstart", "pointerdown", "keydown"]) {
        this.box.addEventListener(name, () => { this.scrolledByHand = true; }, { passive: true });
      }
      new ResizeObserver(() => { if (!this.scrolledByHand) this.keepInView(); }).observe($("timeline"));
    }
    this.showRounds(this.head.dataset.rounds === "yes");
    this.update();
    this.size();
    this.fitLog();
    this.keepInView();
  }

  /** A log beside the viewer (sticky) ends at the window's bottom edge, wherever it starts. */
  fitLog() {
    const log = this.box && this.box.closest(".log");
    if (!log) return;
    if (getComputedStyle(log).position !== "sticky") {
      log.style.maxHeight = "";
      return;
    }
    const top = Math.max(0, log.getBoundingClientRect().top);
    log.style.maxHeight = `${Math.floor(window.innerHeight - top)}px`;
  }

  /** The records where the match shows a step's (or a round's) outcome, in order. */
  stops(kind) {
    const groups = [...document.querySelectorAll("#timeline tbody.group[data-resolved]")];
    let seqs = groups.map((g) => Number(g.dataset.resolved));
    if (kind === "round") {
      const ends = new Map();
      for (const g of groups) if (g.dataset.round) ends.set(g.dataset.round, Number(g.dataset.resolved));
      seqs = [...ends.values()];
    }
    return [0, ...seqs.sort((a, b) => a - b), this.last];
  }

  /** The next (``direction`` 1) or previous (-1) stop of ``kind`` from the moment shown. */
  stop(kind, direction) {
    const stops = this.stops(kind);
    if (direction > 0) return stops.find((s) => s > this.at) ?? this.last;
    return stops.reverse().find((s) => s < this.at) ?? 0;
  }

  showRounds(shown) {
    this.controls.prevRound.hidden = !shown;
    this.controls.nextRound.hidden = !shown;
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const onControl = event.target instanceof HTMLElement && event.target.closest("a, button, summary");
    let target = null;
    if (event.key === "ArrowLeft") target = event.shiftKey ? this.stop("step", -1) : this.at - 1;
    else if (event.key === "ArrowRight") target = event.shiftKey ? this.stop("step", 1) : this.at + 1;
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = this.last;
    else if (event.key === " " && !onControl) {
      event.preventDefault();
      if (this.playing) this.pause(); else this.play();
      return;
    }
    if (target === null) return;
    event.preventDefault();
    this.pause();
    this.go(target);
  }

  clickLog(event) {
    const row = event.target instanceof Element && event.target.closest("tr.event[data-seq]");
    if (!row) return;
    const link = event.target.closest("a");
    if (event.target.closest("button") || (link && !row.contains(link))) return;
    if (link && (event.ctrlKey || event.metaKey || event.shiftKey)) return; // a new tab
    if (!link && String(window.getSelection() || "").trim()) return; // selecting text
    event.preventDefault();
    this.pause();
    this.go(Number(row.dataset.seq));
  }

  /** Show the moment after record ``seq`` (clamped to the log). */
  async go(seq) {
    const target = Math.max(0, Math.min(this.last, Math.round(seq)));
    if (Number.isNaN(target)) return;
    this.at = target;
    this.scrolledByHand = false;
    this.update();
    this.keepInView();
    if ($("moment").dataset.at === String(target)) return; // shown already
    let html;
    try {
      html = await this.fetchMoment(target);
    } catch (error) {
      if (this.at === target) this.say(`Could not show record ${target}: ${error.message}. Try again.`);
      return;
    }
    if (this.at !== target) return; // a later step won the race
    this.say("");
    this.swap(html);
    if (target < this.last) this.fetchMoment(target + 1).catch(() => {});
  }

  fetchMoment(seq) {
    if (this.moments.has(seq)) return Promise.resolve(this.moments.get(seq));
    if (this.loading.has(seq)) return this.loading.get(seq);
    const loading = fetch(`${this.base}/picture?at=${seq}`, { credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok) {
          let reason = `${response.status} ${response.statusText}`;
          try { reason = (await response.json()).error || reason; } catch { /* not JSON */ }
          throw new Error(reason);
        }
        const html = await response.text();
        this.moments.set(seq, html);
        if (this.moments.size > KEPT_MOMENTS) this.moments.delete(this.moments.keys().next().value);
        return html;
      })
      .finally(() => this.loading.delete(seq));
    this.loading.set(seq, loading);
    return loading;
  }

  swap(html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.querySelector("#moment");
    if (!fresh) return;
    $("moment").replaceWith(fresh);
    showTimes(fresh);
    this.size();
  }

  /** The toolbar, the slider, the highlighted row and the address follow ``this.at``. */
  update() {
    const c = this.controls;
    const { at, last } = this;
    const links = [
      [c.first, 0], [c.prevRound, this.stop("round", -1)], [c.prevStep, this.stop("step", -1)],
      [c.prev, Math.max(at - 1, 0)], [c.next, Math.min(at + 1, last)],
      [c.nextStep, this.stop("step", 1)], [c.nextRound, this.stop("round", 1)], [c.last, last],
    ];
    for (const [link, seq] of links) {
      link.setAttribute("href", `?at=${seq}`);
      const still = (seq === at);
      link.classList.toggle("disabled", still);
      link.setAttribute("aria-disabled", still ? "true" : "false");
    }
    c.seek.max = String(last);
    c.seek.value = String(at);
    const row = this.row(at);
    const what = row ? row.querySelector("td.kind").textContent : "";
    c.seek.setAttribute("aria-valuetext", `Record ${at} of ${last}${what ? `: ${what}` : ""}`);
    $("position-at").textContent = String(at);
    $("position-last").textContent = String(last);
    for (const old of document.querySelectorAll("#timeline tr.event.selected")) {
      old.classList.remove("selected");
      old.removeAttribute("aria-current");
    }
    if (row) {
      row.classList.add("selected");
      row.setAttribute("aria-current", "true");
    }
    const url = new URL(window.location.href);
    if (at === last) url.searchParams.delete("at"); else url.searchParams.set("at", String(at));
    history.replaceState(history.state, "", url);
  }

  row(seq) {
    return document.querySelector(`#timeline tr.event[data-seq="${seq}"]`);
  }

  /** Scroll the log's own box (never the page) so that the current row shows. */
  keepInView() {
    const row = this.row(this.at);
    const box = this.box;
    if (!row || !box || box.scrollHeight <= box.clientHeight + 1) return;
    const head = box.querySelector("thead");
    const shown = box.getBoundingClientRect();
    let top = shown.top + (head && head.offsetParent ? head.offsetHeight : 0);
    let bottom = shown.bottom;
    // The part of the box inside the window, when there is a fair part of it there.
    const seen = Math.min(bottom, window.innerHeight) - Math.max(top, 0);
    if (seen > 4 * row.offsetHeight) {
      top = Math.max(top, 0);
      bottom = Math.min(bottom, window.innerHeight);
    }
    const place = row.getBoundingClientRect();
    const margin = Math.min(48, (bottom - top) / 4);
    if (place.top < top) box.scrollTop -= top - place.top + margin;
    else if (place.bottom > bottom) box.scrollTop += place.bottom - bottom + margin;
  }

  size() {
    sizePicture($("picture"), { zoomed: this.zoomed });
  }

  play() {
    if (this.at >= this.last) this.go(0);
    this.playButton("\u275A\u275A", "Pause");
    const by = $("play-by").value === "step" ? "step" : "record";
    const tick = async () => {
      if (!this.playing) return;
      if (this.at >= this.last) { this.pause(); return; }
      await this.go(by === "step" ? this.stop("step", 1) : this.at + 1);
      if (this.playing) this.playing = setTimeout(tick, PLAY_DELAY_MS[by]);
    };
    this.playing = setTimeout(tick, PLAY_DELAY_MS[by] / 2);
  }

  pause() {
    if (!this.playing) return;
    clearTimeout(this.playing);
    this.playing = null;
    this.playButton("\u25B6\uFE0E", "Play");
  }

  playButton(icon, word) {
    const button = this.controls.play;
    button.querySelector(".icon").textContent = icon;
    button.querySelector(".word").textContent = ` ${word}`;
    button.setAttribute("aria-label", word);
    button.title = `${word} (Space)`;
  }

  /** The log grew to ``last``: a viewer at the end follows it. */
  grow(last, rounds) {
    const following = this.at === this.last;
    this.last = last;
    this.showRounds(rounds);
    if (following) this.go(last); else this.update();
  }

  say(text) {
    if (this.status) this.status.textContent = text;
  }
}
