// The custom-game designer of the new-match form: when the chosen game is "custom" it takes
// the place of the typed options. The host adds, orders and removes the fields of the
// player's form, sets each field's limits, the way a round is won, when picks are revealed,
// the rounds, the points and the default pick, and sees the player's form as it will look
// (the dealer room's own controls, /games/custom/static/controls.js). Every setting has its
// error beside it, checked as the host types (./designer-model.js); the server's
// refusals go beside the setting they name. Templates: ./designer-templates.js.
import { say } from "/static/js/common.js";
import { el } from "/static/js/room-controls.js";
import { FieldError, errorSlot } from "/static/js/new-options.js";
import {
  KINDS, LIMITS, RESOLVERS, check, fieldWords, freshName, fromOptions, newField, settingOf,
} from "./designer-model.js";
import { renderTemplates } from "./designer-parts.js";

const CONTROLS = "/games/custom/static/controls.js";
// The dealer room's styles and the custom game's own, so the preview looks as it will.
const ROOM_STYLES = ["/static/room.css", "/games/custom/static/room.css"];

const STARTING = {
  title: "My game", rounds: 3, points: 1, disclosure: "at-resolve", default: null,
  fields: [{ name: "answer", kind: "text", max_length: 100 }], resolver: { kind: "host" },
};

/** A labelled control with its help and its error slot; ``props`` go to the control. */
function setting(tag, id, label, props = {}, helpText = "") {
  const control = el(tag, { id, ...props });
  const described = [helpText ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(" ");
  control.setAttribute("aria-describedby", described);
  const wrap = el("div", { className: "d-setting" }, el("label", { htmlFor: id, textContent: label }), control);
  if (helpText) wrap.append(el("p", { id: `${id}-help`, className: "muted small help", textContent: helpText }));
  wrap.append(errorSlot(id));
  return [wrap, control];
}

function radios(id, legend, choices, chosen, onPick) {
  const group = el("fieldset", { id, className: "d-radios", "aria-describedby": `${id}-error` }, el("legend", { textContent: legend }));
  for (const [value, words] of choices) {
    const input = el("input", { type: "radio", name: id, value, checked: value === chosen });
    input.addEventListener("change", () => onPick(value));
    group.append(el("label", { className: "check" }, input, ` ${words}`));
  }
  group.append(errorSlot(id));
  return group;
}

export class Designer {
  /** ``box``: where the designer goes; ``players()``: the form's player names now. */
  constructor(box, players) {
    this.box = box;
    this.players = players;
    this.design = fromOptions(STARTING);
    this.builder = import(CONTROLS).then((m) => m.buildFieldControls).catch(() => null);
    this.drawnFields = null; // the fields the preview and the default form were drawn for
  }

  /** Draw the designer (once) and its templates. */
  start() {
    if (this.started) {
      this.refresh();
      return;
    }
    this.started = true;
    for (const href of ROOM_STYLES) document.head.append(el("link", { rel: "stylesheet", href }));
    this.templates = el("fieldset", { className: "group d-templates" });
    this.settings = el("div");
    this.box.replaceChildren(this.templates, this.settings);
    renderTemplates(this.templates, this);
    this.draw();
  }

  /** Start again from a template's options. */
  load(options) {
    this.design = fromOptions(options);
    this.draw();
  }

  /** The design as options; :throws FieldError: for the first setting that is wrong. */
  options() {
    const { options, errors } = this.refresh();
    if (errors.length > 0) throw new FieldError(errors[0][0], errors[0][1]);
    return options;
  }

  /** The setting a server refusal is about (its element id), or null. */
  place(message) {
    return settingOf(message, this.design);
  }

  playersChanged() {
    this.drawnFields = null;
    if (this.started) this.refresh();
  }

  // ------------------------------------------------------------------ drawing

  draw() {
    const d = this.design;
    const on = (control, key, event = "input") => control.addEventListener(event, () => {
      d[key] = control.value;
      this.refresh();
    });
    const game = el("fieldset", { className: "group" }, el("legend", { textContent: "Your game" }));
    const [title, titleBox] = setting("input", "d-title", "Title", { value: d.title, maxLength: LIMITS.title, autocomplete: "off" },
      "What the players see as the game's name.");
    const [rounds, roundsBox] = setting("input", "d-rounds", "Rounds", { type: "number", min: 1, max: LIMITS.rounds, step: 1, value: d.rounds, inputMode: "numeric" },
      `Each round every player sends one pick; 1 to ${LIMITS.rounds}.`);
    const [points, pointsBox] = setting("input", "d-points", "Points for winning a round", { type: "number", min: 0, max: LIMITS.points, step: 1, value: d.points, inputMode: "numeric" });
    on(titleBox, "title");
    on(roundsBox, "rounds");
    on(pointsBox, "points");
    game.append(title, el("div", { className: "d-row" }, rounds, points));
    this.settings.replaceChildren(game, this.drawFields(), this.drawResolver(), this.drawDefault(), this.drawPreview());
    this.drawnFields = null;
    this.refresh();
  }

  drawFields() {
    const d = this.design;
    const group = el("fieldset", { className: "group", id: "d-fields", "aria-describedby": "d-fields-error" },
      el("legend", { textContent: "The player's form: what each player sends every round" }));
    const list = el("ol", { className: "d-fields" });
    d.fields.forEach((field, n) => list.append(this.drawField(field, n + 1)));
    const [kind, kindBox] = setting("select", "d-new-kind", "Kind of the new field");
    for (const [value, words] of Object.entries(KINDS)) kindBox.append(el("option", { value, textContent: words }));
    const add = el("button", { type: "button", id: "d-add", textContent: "Add the field", disabled: d.fields.length >= LIMITS.fields });
    add.addEventListener("click", () => {
      d.fields.push(newField(kindBox.value, freshName(d.fields, kindBox.value)));
      this.redraw(`d-f${d.fields.length}-name`);
    });
    const full = d.fields.length >= LIMITS.fields ? el("p", { className: "muted small", textContent: `A form has at most ${LIMITS.fields} fields.` }) : null;
    group.append(list, errorSlot("d-fields"), el("div", { className: "d-add" }, kind, add));
    if (full) group.append(full);
    return group;
  }

  drawField(field, n) {
    const d = this.design;
    const id = `d-f${n}`;
    const item = el("li", { className: "d-field", "aria-label": `field ${n}` });
    const move = (by, words) => {
      const b = el("button", { type: "button", className: "d-icon", textContent: words, "aria-label": `move field ${n} ${by < 0 ? "up" : "down"}`, disabled: n + by < 1 || n + by > d.fields.length });
      b.addEventListener("click", () => {
        const [moved] = d.fields.splice(n - 1, 1);
        d.fields.splice(n - 1 + by, 0, moved);
        const to = n + by;
        const stays = (by < 0 && to > 1) || (by > 0 && to < d.fields.length);
        this.redraw(`d-f${to}-${stays ? (by < 0 ? "up" : "down") : "name"}`);
      });
      b.id = `${id}-${by < 0 ? "up" : "down"}`;
      return b;
    };
    const remove = el("button", { type: "button", className: "d-remove", id: `${id}-remove`, textContent: "Remove", "aria-label": `remove field ${n}` });
    remove.addEventListener("click", () => {
      d.fields.splice(n - 1, 1);
      this.redraw(d.fields.length === 0 ? "d-add" : `d-f${Math.min(n, d.fields.length)}-name`);
    });
    item.append(el("div", { className: "d-field-head" }, el("h3", { textContent: `Field ${n}` }),
      el("span", { className: "d-tools" }, move(-1, "↑ Up"), move(1, "↓ Down"), remove)));
    const [name, nameBox] = setting("input", `${id}-name`, "Name", { value: field.name, maxLength: LIMITS.name, autocomplete: "off", spellcheck: false, "aria-label": `field ${n} name` },
      "Lowercase letters, digits and _; the player sees it above the field.");
    nameBox.addEventListener("input", () => { field.name = nameBox.value; this.refresh(); });
    const [kind, kindBox] = setting("select", `${id}-kind`, "Kind", { "aria-label": `field ${n} kind` });
    for (const [value, words] of Object.entries(KINDS)) kindBox.append(el("option", { value, textContent: words, selected: value === field.kind }));
    kindBox.addEventListener("change", () => { field.kind = kindBox.value; this.redraw(`${id}-kind`); });
    const optional = el("input", { type: "checkbox", id: `${id}-optional`, checked: field.optional });
    optional.addEventListener("change", () => { field.optional = optional.checked; this.refresh(); });
    item.append(el("div", { className: "d-row" }, name, kind),
      el("label", { className: "check" }, optional, ` Field ${n} may be left empty`), ...this.limits(field, id, n));
    return item;
  }

  /** The settings of a field's kind: its numbers, choices, length. */
  limits(field, id, n) {
    const number = (key, label, words, help = "") => {
      const [wrap, box] = setting("input", `${id}-${key}`, label, { type: "number", step: 1, value: field[key], inputMode: "numeric", "aria-label": `field ${n} ${words}` }, help);
      box.addEventListener("input", () => { field[key] = box.value; this.refresh(); });
      return wrap;
    };
    const choices = () => {
      const [wrap, box] = setting("textarea", `${id}-choices`, "Choices, one a line", { rows: 4, value: field.choices, "aria-label": `field ${n} choices, one a line` },
        `${LIMITS.choices[0]} to ${LIMITS.choices[1]} different choices of up to ${LIMITS.choice} characters.`);
      box.addEventListener("input", () => { field.choices = box.value; this.refresh(); });
      return wrap;
    };
    if (field.kind === "integer") {
      const limit = `From −1,000,000 to 1,000,000.`;
      return [el("div", { className: "d-row" }, number("min", "Smallest number", "smallest number", limit), number("max", "Largest number", "largest number"))];
    }
    if (field.kind === "choice") return [choices()];
    if (field.kind === "ranking") {
      return [choices(), number("length", "How many of them the player ranks", "ranking length", "From 1 to the number of choices.")];
    }
    if (field.kind === "text") return [number("max_length", "Longest answer, in characters", "longest answer", `1 to ${LIMITS.text}.`)];
    const self = el("input", { type: "checkbox", id: `${id}-self`, checked: field.self });
    self.addEventListener("change", () => { field.self = self.checked; this.redraw(`${id}-self`); });
    return [el("label", { className: "check" }, self, ` A player may choose themselves in field ${n}`)];
  }

  drawResolver() {
    const d = this.design;
    const group = el("fieldset", { className: "group" }, el("legend", { textContent: "Who wins a round" }));
    const [kind, kindBox] = setting("select", "d-resolver-kind", "How a round is won");
    for (const [value, { words }] of Object.entries(RESOLVERS)) {
      kindBox.append(el("option", { value, textContent: words, selected: value === d.resolver.kind }));
    }
    kindBox.addEventListener("change", () => { d.resolver.kind = kindBox.value; this.redraw("d-resolver-kind"); });
    group.append(kind);
    const fit = d.fields.filter((f) => RESOLVERS[d.resolver.kind].kinds.includes(f.kind));
    if (fit.length > 0) {
      const [field, fieldBox] = setting("select", "d-resolver-field", "Judged on the field");
      for (const f of fit) fieldBox.append(el("option", { value: f.name, textContent: fieldWords(f), selected: f.name === d.resolver.field }));
      fieldBox.addEventListener("change", () => { d.resolver.field = fieldBox.value; this.refresh(); });
      group.append(field);
    }
    group.append(radios("d-disclosure", "When the picks are revealed", [["at-resolve", "When each round resolves"], ["at-end", "Only when the match ends (who won each round is shown at once)"]],
      d.disclosure, (value) => { d.disclosure = value; this.refresh(); }));
    return group;
  }

  drawDefault() {
    const d = this.design;
    this.defaultForm = el("div", { className: "d-form", id: "d-default-form", hidden: d.default === null });
    this.defaultNow = el("p", { className: "small", id: "d-default-now", "aria-live": "polite", hidden: d.default === null });
    this.defaulting = d.default !== null;
    const group = radios("d-default", "A player who sends nothing by the deadline", [["none", "takes no part in that round"], ["pick", "gets this pick:"]],
      d.default === null ? "none" : "pick", (value) => {
        this.defaulting = value === "pick";
        this.defaultForm.hidden = !this.defaulting;
        this.defaultNow.hidden = !this.defaulting;
        d.default = this.defaulting ? this.defaultPayload ?? null : null;
        this.refresh();
      });
    group.classList.add("group");
    group.insertBefore(this.defaultForm, group.querySelector(".field-error"));
    group.insertBefore(this.defaultNow, group.querySelector(".field-error"));
    return group;
  }

  drawPreview() {
    this.preview = el("div", { className: "d-form", id: "d-preview-form" });
    this.previewSays = el("p", { className: "small", id: "d-preview-says", "aria-live": "polite" });
    return el("section", { className: "group d-preview", "aria-labelledby": "d-preview-title" },
      el("h2", { id: "d-preview-title", textContent: "The player's form, as it will look" }),
      el("p", { className: "muted small", textContent: "Try it: this is what each player fills in every round. Nothing is sent from here." }),
      this.preview, this.previewSays);
  }

  /** Draw again after a change of structure, then put the focus back on ``focusId``. */
  redraw(focusId) {
    this.draw();
    const target = document.getElementById(focusId);
    if (target) target.focus();
  }

  // ------------------------------------------------------------------ checking

  /** Check the design, show each error beside its setting, redraw the forms if needed. */
  refresh() {
    const result = check(this.design);
    const d = this.design;
    if (this.defaulting && d.default === null) {
      result.errors.push(["d-default", "Fill in the default pick below, or say that a player who sends nothing takes no part."]);
    }
    for (const slot of this.box.querySelectorAll(".field-error")) {
      if (slot.id.startsWith("d-save") || slot.id.startsWith("d-upload")) continue;
      say(slot, "");
    }
    for (const input of this.settings.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    const shown = new Set();
    for (const [id, message] of result.errors) {
      if (shown.has(id)) continue;
      shown.add(id);
      say(document.getElementById(`${id}-error`), message, "bad");
      document.getElementById(id)?.setAttribute("aria-invalid", "true");
    }
    const fieldsWrong = result.errors.some(([id]) => /^d-f\d|^d-fields/.test(id));
    this.drawForms(fieldsWrong ? null : result.options.fields);
    return result;
  }

  /** The preview and the default form, drawn with the dealer room's controls for ``fields``. */
  async drawForms(fields) {
    const key = JSON.stringify(fields);
    if (key === this.drawnFields) return;
    this.drawnFields = key;
    if (fields === null) {
      this.preview.replaceChildren(el("p", { className: "muted", textContent: "The form shows here once the fields above have no errors." }));
      say(this.previewSays, "");
      this.defaultForm.replaceChildren();
      return;
    }
    const build = await this.builder;
    if (key !== this.drawnFields) return; // a newer design was drawn meanwhile
    if (!build) {
      this.preview.replaceChildren(el("p", { className: "bad", textContent: "The player's form could not be drawn: the custom game's controls did not load. Reload the page to try again." }));
      return;
    }
    const players = this.players();
    const me = players[0] || "";
    this.preview.replaceChildren();
    build(this.preview, fields, { players, me, onChange: (payload, words) => say(this.previewSays, payload === null ? "" : `The player would send: ${words}.`) });
    const same = (payload) => payload && JSON.stringify(Object.keys(payload).sort()) === JSON.stringify(fields.map((f) => f.name).sort());
    if (!same(this.design.default)) this.design.default = null; // the fields changed: fill it again
    if (!same(this.defaultPayload)) this.defaultPayload = null;
    this.defaultForm.replaceChildren();
    build(this.defaultForm, fields, {
      players, me, initial: this.design.default, onChange: (payload, words) => {
        this.defaultPayload = payload;
        if (this.defaulting) this.design.default = payload;
        say(this.defaultNow, payload === null ? words || "" : `The default pick: ${words}`);
        this.refresh();
      },
    });
  }
}
