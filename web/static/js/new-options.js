// The new-match form's option controls, built from a game's typed options (GET /api/games):
// a checkbox (a yes/no option, or a choice between nothing and one thing such as the Even/Odd
// action card), a number, a choice, a list of names or a number per player, each labelled,
// with its description as help and a place for its error beside it. An option left empty is
// left out, so the server fills in the game's default.

/** An option's name in words: "start_points" -> "Start points". */
export function title(name) {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Names typed one a line or separated by commas. */
export function names(text) {
  return text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * A choice in words: the way the option's description writes it ("Even/Odd" for
 * "even-odd"), else the wire word with its dashes as spaces.
 */
export function choiceWords(choice, description = "") {
  if (choice === null) return "none";
  const text = String(choice);
  const pattern = new RegExp(text.split(/[-_ ]/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[-/_ ]"), "i");
  const found = pattern.exec(description);
  return found ? found[0] : text.replace(/[-_]/g, " ");
}

/** Whether a choice option is "nothing or one thing": a checkbox says it best. */
function isToggle(option) {
  return option.kind === "choice" && option.choices.length === 2 && option.choices[0] === null;
}

function help(option, id) {
  const p = document.createElement("p");
  p.className = "muted small help";
  p.id = `${id}-help`;
  p.textContent = option.description.charAt(0).toUpperCase() + option.description.slice(1) + ".";
  return p;
}

/** The element that shows an error beside a field (``id`` is the field's). */
export function errorSlot(id) {
  const p = document.createElement("p");
  p.className = "field-error";
  p.id = `${id}-error`;
  p.setAttribute("aria-live", "polite");
  return p;
}

function describe(input, id) {
  input.id = id;
  input.setAttribute("aria-describedby", `${id}-help ${id}-error`);
}

function checkbox(option, id, wrap, label, checked) {
  const input = document.createElement("input");
  input.type = "checkbox";
  input.checked = checked;
  describe(input, id);
  label.className = "check";
  label.prepend(input);
  wrap.append(label, help(option, id), errorSlot(id));
  return wrap;
}

function control(option, players, kept) {
  const id = `opt-${option.name}`;
  const wrap = document.createElement("div");
  wrap.className = "option";
  wrap.dataset.option = option.name;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = title(option.name);
  if (option.kind === "bool") return checkbox(option, id, wrap, label, option.default === true);
  if (isToggle(option)) {
    label.textContent = `${title(option.name)}: ${choiceWords(option.choices[1], option.description)}`;
    return checkbox(option, id, wrap, label, option.default === option.choices[1]);
  }
  let input;
  if (option.kind === "integer") {
    input = document.createElement("input");
    input.type = "number";
    input.step = "1";
    input.inputMode = "numeric";
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
    if (option.default !== null) input.value = String(option.default);
  } else if (option.kind === "choice") {
    input = document.createElement("select");
    for (const choice of option.choices) {
      const item = document.createElement("option");
      item.value = choice === null ? "" : String(choice);
      item.textContent = choiceWords(choice, option.description);
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
    return perPlayerControl(option, id, wrap, players, kept);
  } else {
    return null; // a kind this page does not know: the JSON box still takes it
  }
  describe(input, id);
  wrap.append(label, input, help(option, id), errorSlot(id));
  return wrap;
}

function perPlayerControl(option, id, wrap, players, kept) {
  const fieldset = document.createElement("fieldset");
  fieldset.className = "per-player";
  fieldset.setAttribute("aria-describedby", `${id}-help ${id}-error`);
  const legend = document.createElement("legend");
  legend.textContent = `${title(option.name)} (one number per player)`;
  const table = document.createElement("table");
  table.className = "per-player";
  table.id = id;
  fieldset.append(legend, table);
  wrap.append(fieldset, help(option, id), errorSlot(id));
  wrap.dataset.perPlayer = "1";
  const values = kept[option.name] || (kept[option.name] = { ...(option.default || {}) });
  for (const [n, player] of players.entries()) {
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
    input.inputMode = "numeric";
    input.id = `${id}-${n}`;
    input.dataset.player = player;
    input.placeholder = option.filled ? "0" : "";
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
    if (values[player] !== undefined && values[player] !== null) input.value = String(values[player]);
    input.addEventListener("input", () => { values[player] = input.value === "" ? undefined : input.value; });
    cell.appendChild(input);
  }
  return wrap;
}

/**
 * The option controls of game ``g`` for these players. ``kept`` keeps what was typed per
 * player (option name -> {player: value}) while the players change.
 */
export function renderOptions(g, box, players, kept) {
  box.replaceChildren();
  for (const option of g.options || []) {
    const item = control(option, players, kept);
    if (item) box.appendChild(item);
  }
  return box.children.length;
}

/** Draw the per-player controls again for a new list of players (typed values kept). */
export function rerenderPerPlayer(g, box, players, kept) {
  for (const option of g.options || []) {
    if (option.kind !== "per-player-integer") continue;
    const old = box.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (old) old.replaceWith(control(option, players, kept));
  }
}

/** An error of one option: ``field`` names the control it belongs beside. */
export class FieldError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

function whole(text, option) {
  const value = Number(text);
  const field = `opt-${option.name}`;
  if (text.trim() === "" || !Number.isInteger(value)) throw new FieldError(field, `${title(option.name)} must be a whole number.`);
  if (option.minimum !== null && value < option.minimum) throw new FieldError(field, `${title(option.name)} is at least ${option.minimum}.`);
  if (option.maximum !== null && value > option.maximum) throw new FieldError(field, `${title(option.name)} is at most ${option.maximum}.`);
  return value;
}

/** The options object the controls say; an empty control is left out (the server's default). */
export function optionsFromControls(g) {
  const options = {};
  for (const option of g.options || []) {
    const input = document.getElementById(`opt-${option.name}`);
    if (!input) continue;
    if (option.kind === "bool") {
      options[option.name] = input.checked;
    } else if (isToggle(option)) {
      options[option.name] = input.checked ? option.choices[1] : null;
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

/**
 * The field an API error message is about: an option it names (or the singular of its
 * name: "the voter ..." is about "voters"), else the form's own fields by their words.
 */
export function fieldOf(message, g) {
  const text = message.toLowerCase();
  for (const option of (g && g.options) || []) {
    const name = option.name.toLowerCase();
    const words = [name, name.replace(/_/g, " "), name.replace(/s$/, "")];
    if (words.some((w) => w.length > 2 && new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(text))) return `opt-${option.name}`;
  }
  if (/step_seconds|deadline/.test(text)) return "step-seconds";
  if (/notify|notification|apprise/.test(text)) return "notify";
  if (/custody/.test(text)) return "self-custody";
  if (/'name'|match name|"name"/.test(text)) return "match-name";
  if (/player|seat|name/.test(text)) return "players";
  if (/option/.test(text)) return "options";
  return null;
}
