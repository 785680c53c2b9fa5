// A custom game's dealer-room controls: the player's form, built from the fields the host
// designed (status.options.fields). Each field gets real controls named for what they pick:
//   integer  a stepper: "one less for guess", the box "number for guess", "one more for guess",
//            with its bounds shown;
//   choice   one button per choice, "choice Paris" (aria-pressed);
//   player   one button per player, "player ben" (oneself only when the field allows it);
//   ranking  tap-to-rank: "rank Paris" in order, shown numbered, with "undo order" / "clear order";
//   text     a box "text for why" with a live count of its characters (code points) and the most;
// and an optional field a "skip guess" button that leaves it empty.
// `buildFieldControls(root, fields, {players, me, onChange, initial})` is the form alone (the
// designer's preview on the new-match page uses it too); `pickControls(root, ctx)` is the room's.

import { el } from "/static/js/room-controls.js";

const NOTE_HOLD = "Choose";

/** A field's name as words: "best_city" is "best city". */
export function label(name) {
  return String(name).replace(/_/g, " ");
}

/** Text length in characters as the rules count them (code points, not UTF-16 units). */
export function codePoints(text) {
  return [...String(text)].length;
}

/** One field's value in words: a number, a choice, a ranking "Paris, then Rome", quoted text. */
export function valueWords(field, value) {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return value.join(", then ");
  if (field && field.kind === "text") return `“${value}”`;
  return String(value);
}

/** A whole pick in words: "guess 3, city Paris"; fields left empty said so. */
export function pickWords(fields, payload) {
  return fields
    .map((f) => (payload[f.name] === null || payload[f.name] === undefined
      ? `${label(f.name)} left empty`
      : `${label(f.name)} ${valueWords(f, payload[f.name])}`))
    .join(", ");
}

/** What a field asks for, shown under its name. */
export function fieldHint(field, { players = [], me = null } = {}) {
  const optional = field.optional ? " You may skip it." : "";
  switch (field.kind) {
    case "integer": return `Tap − or +, or type it.${optional}`;
    case "choice": return `Tap one.${optional}`;
    case "player": return `${field.self ? "Any player, yourself included" : "Another player"}.${optional}`;
    case "ranking": return `Tap ${field.length} of them in your order of preference.${optional}`;
    case "text": return `Up to ${field.max_length} characters.${optional}`;
    default: return optional;
  }
}

/** Why a field's value is not valid (one plain sentence), or "" when it is. */
export function fieldProblem(field, value) {
  const name = label(field.name);
  if (value === null || value === undefined) return field.optional ? "" : `${NOTE_HOLD} ${name}.`;
  switch (field.kind) {
    case "integer":
      if (!Number.isInteger(value) || value < field.min || value > field.max) {
        return `${name} is a whole number from ${field.min} to ${field.max}.`;
      }
      return "";
    case "ranking": {
      const left = field.length - value.length;
      if (left > 0) return `Rank ${left} more for ${name}.`;
      return "";
    }
    case "text": {
      const count = codePoints(value);
      if (count === 0) return field.optional ? "" : `Write something for ${name}.`;
      if (count > field.max_length) return `${name} is too long: ${count} of at most ${field.max_length} characters.`;
      return "";
    }
    default:
      return "";
  }
}

// --------------------------------------------------------------------- one field each

function toggleGroup(name, items, current, choose) {
  const group = el("div", { className: "choices", role: "group", "aria-label": name });
  const buttons = new Map();
  for (const { value, text, aria } of items) {
    const button = el("button", { type: "button", className: "choice", textContent: text, "aria-label": aria, "aria-pressed": "false" });
    button.addEventListener("click", () => choose(button.getAttribute("aria-pressed") === "true" ? null : value));
    buttons.set(value, button);
    group.append(button);
  }
  const show = (value) => {
    for (const [v, b] of buttons) b.setAttribute("aria-pressed", String(v === value));
  };
  show(current);
  return { group, show };
}

function integerControl(field, box, state) {
  const name = label(field.name);
  const input = el("input", {
    type: "number", className: "cf-number", inputMode: "numeric", min: String(field.min), max: String(field.max), step: "1",
    "aria-label": `number for ${name}`, value: state.value === null ? "" : String(state.value),
  });
  const read = () => {
    const text = input.value.trim();
    state.set(text === "" ? null : Number(text), { keepInput: true });
  };
  const step = (by) => {
    let next = Number.isInteger(state.value) ? state.value + by : by > 0 ? field.min : field.max;
    next = Math.min(field.max, Math.max(field.min, next));
    input.value = String(next);
    state.set(next);
  };
  const less = el("button", { type: "button", className: "cf-step", textContent: "−", "aria-label": `one less for ${name}` });
  const more = el("button", { type: "button", className: "cf-step", textContent: "+", "aria-label": `one more for ${name}` });
  less.addEventListener("click", () => step(-1));
  more.addEventListener("click", () => step(1));
  input.addEventListener("input", read);
  box.append(
    el("div", { className: "cf-stepper" }, less, input, more),
    el("p", { className: "cf-bounds small muted", textContent: `from ${field.min} to ${field.max}` }),
  );
  state.clear = () => { input.value = ""; };
}

function choiceControl(field, box, state, { players, me }) {
  const name = label(field.name);
  let items;
  if (field.kind === "player") {
    items = players.filter((p) => field.self || p !== me).map((p) => ({ value: p, text: p, aria: `player ${p}` }));
  } else {
    items = (field.choices || []).map((c) => ({ value: c, text: c, aria: `choice ${c}` }));
  }
  const { group, show } = toggleGroup(name, items, state.value, (value) => state.set(value));
  state.shown.push(show);
  box.append(group);
}

function rankingControl(field, box, state) {
  const name = label(field.name);
  const order = () => (Array.isArray(state.value) ? state.value : []);
  const group = el("div", { className: "choices cf-ranking", role: "group", "aria-label": name });
  const buttons = new Map();
  const list = el("ol", { className: "cf-order", "aria-label": `your order for ${name}` });
  const put = (ranked) => state.set(ranked.length ? ranked : null);
  const tap = (choice) => {
    const now = order();
    if (now.includes(choice)) put(now.filter((c) => c !== choice));
    else if (now.length < field.length) put([...now, choice]);
  };
  for (const choice of field.choices || []) {
    const badge = el("span", { className: "cf-rank", "aria-hidden": "true" });
    const button = el("button", { type: "button", className: "choice cf-rankable", "aria-label": `rank ${choice}`, "aria-pressed": "false" }, badge, choice);
    button.addEventListener("click", () => tap(choice));
    buttons.set(choice, { button, badge });
    group.append(button);
  }
  const undo = el("button", { type: "button", className: "secondary", textContent: "Undo", "aria-label": `undo ${name}` });
  const clear = el("button", { type: "button", className: "secondary", textContent: "Clear", "aria-label": `clear ${name}` });
  undo.addEventListener("click", () => put(order().slice(0, -1)));
  clear.addEventListener("click", () => put([]));
  state.shown.push(() => {
    const now = order();
    for (const [choice, { button, badge }] of buttons) {
      const at = now.indexOf(choice);
      badge.textContent = at < 0 ? "" : String(at + 1);
      button.setAttribute("aria-pressed", String(at >= 0));
      button.disabled = at < 0 && now.length >= field.length;
    }
    list.replaceChildren(...now.map((c) => el("li", { textContent: c })));
    list.hidden = !now.length;
    undo.disabled = !now.length;
    clear.disabled = !now.length;
  });
  box.append(group, list, el("div", { className: "cf-tools" }, undo, clear));
}

function textControl(field, box, state) {
  const name = label(field.name);
  const area = el("textarea", { className: "cf-text", rows: 3, "aria-label": `text for ${name}`, value: state.value || "" });
  const counter = el("p", { className: "cf-counter small", "aria-live": "polite" });
  const count = () => {
    const n = codePoints(area.value);
    counter.textContent = `${n} of ${field.max_length} characters`;
    counter.classList.toggle("bad", n > field.max_length);
  };
  area.addEventListener("input", () => {
    count();
    state.set(area.value === "" ? null : area.value, { keepInput: true });
  });
  count();
  box.append(area, counter);
  state.clear = () => {
    area.value = "";
    count();
  };
}

// --------------------------------------------------------------------- the form

/**
 * Build the form of `fields` into `root`. `onChange(payload, words)` is called on every change:
 * the payload (every field, null when left empty) and "guess 3, city Paris" when every field
 * holds a valid value, else null and what is still to do ("Choose city.").
 */
export function buildFieldControls(root, fields, { players = [], me = null, onChange = () => {}, initial = null } = {}) {
  const states = [];
  const report = () => {
    const problems = states.map((s) => fieldProblem(s.field, s.value)).filter(Boolean);
    for (const s of states) {
      const empty = s.value === null && s.field.optional;
      s.note.textContent = empty ? "Left empty." : fieldProblem(s.field, s.value);
      s.note.classList.toggle("muted", empty);
    }
    if (problems.length) {
      onChange(null, problems.join(" "));
      return;
    }
    const payload = Object.fromEntries(states.map((s) => [s.field.name, s.value]));
    onChange(payload, pickWords(fields, payload));
  };
  const form = el("div", { className: "cf-form" });
  for (const field of fields) {
    const name = label(field.name);
    const start = initial && Object.hasOwn(initial, field.name) ? initial[field.name] : null;
    const note = el("p", { className: "cf-note small", "aria-live": "polite" });
    const state = {
      field, note, value: start, shown: [], clear: () => {},
      set(value, { keepInput = false } = {}) {
        this.value = value;
        if (value === null && !keepInput) this.clear();
        for (const show of this.shown) show(value);
        report();
      },
    };
    states.push(state);
    const box = el("fieldset", { className: `cf-field cf-${field.kind}` },
      el("legend", { className: "cf-legend", textContent: name }),
      el("p", { className: "cf-hint small muted", textContent: fieldHint(field, { players, me }) }));
    if (field.kind === "integer") integerControl(field, box, state);
    else if (field.kind === "choice" || field.kind === "player") choiceControl(field, box, state, { players, me });
    else if (field.kind === "ranking") rankingControl(field, box, state);
    else textControl(field, box, state);
    if (field.optional) {
      const skip = el("button", { type: "button", className: "secondary cf-skip", textContent: "Skip", "aria-label": `skip ${name}` });
      skip.addEventListener("click", () => state.set(null));
      box.append(skip);
    }
    box.append(note);
    for (const show of state.shown) show(state.value);
    form.append(box);
  }
  root.append(form);
  report();
  return { payload: () => Object.fromEntries(states.map((s) => [s.field.name, s.value])) };
}

/** The dealer room's controls: the design's form; complete and valid, it is the choice. */
export function pickControls(root, ctx) {
  const status = ctx.room.status;
  const fields = (status.options && status.options.fields) || [];
  const current = ctx.room.me.current_pick && ctx.room.me.current_pick.pick;
  root.append(el("p", { className: "small", textContent: "Fill in every field you want to give." }));
  buildFieldControls(root, fields, {
    players: status.players,
    me: ctx.player,
    initial: current,
    onChange: (payload, words) => (payload ? ctx.choose(payload, `You pick ${words}.`) : ctx.unchoose(words)),
  });
}
