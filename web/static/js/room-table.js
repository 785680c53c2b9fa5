// The table of a dealer room: the game's picture (the same drawing as the public page, from
// the player's seat) with a real button laid over each region the picture marks
// `data-hit="<accessible name>"` ("row 2", "square b2", "cell H8"). A game's controls tap
// the table through this object; what they mark stays marked when the picture is redrawn.

export class Table {
  /** @param {HTMLElement} stage the element the picture and its buttons go in */
  constructor(stage) {
    this.stage = stage;
    this.hits = new Map(); // accessible name -> its button
    this.marks = new Map(); // accessible name -> Set of classes
    this.handler = null;
    this.allowed = null; // null: every region may be tapped (while a handler is set)
    this.svgText = "";
    new ResizeObserver(() => this.place()).observe(stage);
  }

  /** Show a new picture (the SVG text the service drew); nothing happens if it is unchanged. */
  show(svgText) {
    if (svgText === this.svgText) return;
    this.svgText = svgText;
    const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
    const drawing = parsed.nodeName === "svg" ? document.importNode(parsed, true) : document.createElement("div");
    drawing.classList.add("table-picture");
    this.stage.replaceChildren(drawing);
    this.hits = new Map();
    for (const region of drawing.querySelectorAll("[data-hit]")) {
      const name = region.getAttribute("data-hit");
      if (this.hits.has(name)) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hit";
      button.setAttribute("aria-label", name);
      button.dataset.hit = name;
      button.addEventListener("click", () => {
        if (this.handler && this.tappable(name)) this.handler(name);
      });
      button.region = region;
      this.hits.set(name, button);
      this.stage.appendChild(button);
    }
    this.place();
    this.refresh();
  }

  /** Lay each button over its region (positions in % of the picture, so they scale with it). */
  place() {
    const drawing = this.stage.querySelector(".table-picture");
    if (!drawing) return;
    const box = drawing.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const stageBox = this.stage.getBoundingClientRect();
    for (const button of this.hits.values()) {
      const r = button.region.getBoundingClientRect();
      button.style.left = `${((r.left - stageBox.left) / stageBox.width) * 100}%`;
      button.style.top = `${((r.top - stageBox.top) / stageBox.height) * 100}%`;
      button.style.width = `${(r.width / stageBox.width) * 100}%`;
      button.style.height = `${(r.height / stageBox.height) * 100}%`;
    }
  }

  tappable(name) {
    return this.handler !== null && (this.allowed === null || this.allowed.has(name));
  }

  /** Bring the buttons' classes and states up to date with the marks and the handler. */
  refresh() {
    for (const [name, button] of this.hits) {
      button.className = "hit";
      for (const cls of this.marks.get(name) || []) button.classList.add(cls);
      const can = this.tappable(name);
      button.disabled = !can;
      button.classList.toggle("live", can);
      const pressed = (this.marks.get(name) || new Set()).has("selected") || (this.marks.get(name) || new Set()).has("chosen");
      if (can) button.setAttribute("aria-pressed", String(pressed));
      else button.removeAttribute("aria-pressed");
    }
  }

  /** Set the one function called with a region's name when the player taps it (null: none). */
  onHit(fn) {
    this.handler = fn || null;
    this.refresh();
  }

  /** Only these regions may be tapped (null: all of them). */
  enable(names) {
    this.allowed = names === null || names === undefined ? null : new Set(names);
    this.refresh();
  }

  /** Add or remove a class on a region's button; it stays across redraws. */
  mark(name, cls, on = true) {
    const set = this.marks.get(name) || new Set();
    if (on) set.add(cls);
    else set.delete(cls);
    this.marks.set(name, set);
    this.refresh();
  }

  /** Remove a class from every region (every class when none is given). */
  clear(cls) {
    for (const set of this.marks.values()) {
      if (cls === undefined) set.clear();
      else set.delete(cls);
    }
    this.refresh();
  }

  /** Forget every mark and the handler (a new step). */
  reset() {
    this.marks = new Map();
    this.handler = null;
    this.allowed = null;
    this.refresh();
  }
}
