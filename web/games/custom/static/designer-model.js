// The custom game's design as the designer keeps it, and its check (RULINGS.md §5; the
// server's normalise_options is the final judge). A design holds what the host typed, as
// text where a number is asked, so a wrong value can be shown beside its setting; `check`
// turns it into the options object and the errors by setting (the element ids of
// ./designer.js: "d-rounds", "d-f2-min", ...).

export const KINDS = {
  integer: "A whole number",
  choice: "One of several choices",
  player: "A player",
  ranking: "A ranking",
  text: "Free text",
};

export const RESOLVERS = {
  "lowest-unique": { words: "The lowest number that only one player chose wins", kinds: ["integer"] },
  "highest-unique": { words: "The highest number that only one player chose wins", kinds: ["integer"] },
  plurality: { words: "Everyone who chose the most popular answer wins", kinds: ["choice", "player"] },
  host: { words: "The host looks at the revealed picks and names the winners", kinds: [] },
};

export const LIMITS = {
  title: 100, rounds: 50, points: 1000, fields: 8, name: 32, value: 1_000_000,
  choices: [2, 40], choice: 40, text: 500,
};

const NAME = /^[a-z0-9_]{1,32}$/;

/** A field's settings for every kind, so switching kinds and back keeps what was typed. */
export function newField(kind, name) {
  return {
    name, kind, optional: false, min: "1", max: "10", choices: "yes\nno", self: false,
    length: "2", max_length: "100",
  };
}

/** The design of an options object (a template's, an upload's): tolerant of anything. */
export function fromOptions(options) {
  const o = options && typeof options === "object" ? options : {};
  const text = (v, fallback) => (v === undefined || v === null ? fallback : String(v));
  const fields = (Array.isArray(o.fields) ? o.fields : []).slice(0, LIMITS.fields).map((f, n) => {
    const kind = f && KINDS[f.kind] ? f.kind : "integer";
    const field = newField(kind, text(f && f.name, `field_${n + 1}`));
    if (!f || typeof f !== "object") return field;
    field.optional = f.optional === true;
    field.min = text(f.min, field.min);
    field.max = text(f.max, field.max);
    if (Array.isArray(f.choices)) field.choices = f.choices.map(String).join("\n");
    field.self = f.self === true;
    field.length = text(f.length, field.length);
    field.max_length = text(f.max_length, field.max_length);
    return field;
  });
  const resolver = o.resolver && typeof o.resolver === "object" ? o.resolver : {};
  return {
    title: text(o.title, ""),
    rounds: text(o.rounds, "1"),
    points: text(o.points, "1"),
    disclosure: o.disclosure === "at-end" ? "at-end" : "at-resolve",
    resolver: { kind: RESOLVERS[resolver.kind] ? resolver.kind : "host", field: text(resolver.field, "") },
    default: o.default && typeof o.default === "object" ? o.default : null,
    fields,
  };
}

/** A field's kind in words, for a list: "guess (one of several choices)". */
export function fieldWords(field) {
  return `${field.name || "unnamed"} (${KINDS[field.kind].toLowerCase()})`;
}

function whole(text, id, what, low, high, errors) {
  const value = Number(String(text).trim());
  if (String(text).trim() === "" || !Number.isInteger(value)) {
    errors.push([id, `${what} must be a whole number.`]);
    return null;
  }
  if (value < low || value > high) {
    errors.push([id, `${what} must be from ${low.toLocaleString("en")} to ${high.toLocaleString("en")}.`]);
    return null;
  }
  return value;
}

/** The choices typed one a line: trimmed, empty lines dropped. */
export function choiceList(text) {
  return String(text).split("\n").map((s) => s.trim()).filter((s) => s !== "");
}

function checkChoices(field, id, errors) {
  const list = choiceList(field.choices);
  const [fewest, most] = LIMITS.choices;
  if (list.length < fewest || list.length > most) {
    errors.push([id, `Give ${fewest} to ${most} choices, one a line (now ${list.length}).`]);
  } else if (new Set(list).size !== list.length) {
    const twice = list.find((c, n) => list.indexOf(c) !== n);
    errors.push([id, `The choice "${twice}" appears twice; each choice must be different.`]);
  } else if (list.some((c) => [...c].length > LIMITS.choice)) {
    errors.push([id, `Each choice is at most ${LIMITS.choice} characters.`]);
  }
  return list;
}

function checkField(field, n, seen, errors) {
  const id = `d-f${n}`;
  const out = { name: field.name, kind: field.kind };
  if (!NAME.test(field.name)) {
    errors.push([`${id}-name`, "A field's name is 1 to 32 lowercase letters, digits or _ (such as bid or my_guess)."]);
  } else if (seen.has(field.name)) {
    errors.push([`${id}-name`, `Another field is already called ${field.name}; give each field its own name.`]);
  }
  seen.add(field.name);
  if (field.kind === "integer") {
    const low = whole(field.min, `${id}-min`, "The smallest number", -LIMITS.value, LIMITS.value, errors);
    const high = whole(field.max, `${id}-max`, "The largest number", -LIMITS.value, LIMITS.value, errors);
    if (low !== null && high !== null && low > high) {
      errors.push([`${id}-max`, `The largest number (${high}) is smaller than the smallest (${low}).`]);
    }
    Object.assign(out, { min: low, max: high });
  } else if (field.kind === "choice") {
    out.choices = checkChoices(field, `${id}-choices`, errors);
  } else if (field.kind === "player") {
    out.self = field.self;
  } else if (field.kind === "ranking") {
    out.choices = checkChoices(field, `${id}-choices`, errors);
    const most = Math.max(1, out.choices.length);
    out.length = whole(field.length, `${id}-length`, "The number of choices to rank", 1, most, errors);
  } else {
    out.max_length = whole(field.max_length, `${id}-max_length`, "The longest answer", 1, LIMITS.text, errors);
  }
  if (field.optional) out.optional = true;
  return out;
}

function checkResolver(design, fields, errors) {
  const { kind } = design.resolver;
  if (kind === "host") {
    if (design.disclosure === "at-end") {
      errors.push(["d-disclosure", "The host can only judge picks that are shown: reveal them when each round resolves, or choose another way to win."]);
    }
    return { kind };
  }
  const fit = fields.filter((f) => RESOLVERS[kind].kinds.includes(f.kind));
  if (fit.length === 0) {
    const want = RESOLVERS[kind].kinds.map((k) => `"${KINDS[k].toLowerCase()}"`).join(" or ");
    errors.push(["d-resolver-kind", `This way to win needs a field of the kind ${want}; add one or choose another way.`]);
    return { kind, field: design.resolver.field };
  }
  const field = fit.find((f) => f.name === design.resolver.field) ? design.resolver.field : fit[0].name;
  design.resolver.field = field;
  return { kind, field };
}

/**
 * Check a design: ``{options, errors}`` where ``errors`` is a list of [setting id, message]
 * in the order the settings appear on the page.
 */
export function check(design) {
  const errors = [];
  const title = design.title.trim();
  if (title === "" || [...title].length > LIMITS.title) {
    errors.push(["d-title", `Give the game a title of 1 to ${LIMITS.title} characters.`]);
  }
  const rounds = whole(design.rounds, "d-rounds", "The number of rounds", 1, LIMITS.rounds, errors);
  const points = whole(design.points, "d-points", "The points for winning a round", 0, LIMITS.points, errors);
  if (design.fields.length < 1 || design.fields.length > LIMITS.fields) {
    errors.push(["d-fields", `A player's form has 1 to ${LIMITS.fields} fields.`]);
  }
  const seen = new Set();
  const fields = design.fields.map((f, n) => checkField(f, n + 1, seen, errors));
  const resolver = checkResolver(design, fields, errors);
  const options = {
    title, rounds, fields, resolver, disclosure: design.disclosure, default: design.default, points,
  };
  return { options, errors };
}

/** A name for a new field of ``kind`` that no field has yet. */
export function freshName(fields, kind) {
  const base = { integer: "number", choice: "choice", player: "player", ranking: "ranking", text: "answer" }[kind];
  const taken = new Set(fields.map((f) => f.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n += 1;
  return `${base}_${n}`;
}

/**
 * The setting a server refusal is about: the resolver, the disclosure or the default when it
 * names them, else a field it names (by "field 2" or by its name) and the limit it names,
 * else the setting its words name; null when none (the message then shows at the top).
 */
export function settingOf(message, design) {
  const text = message.toLowerCase();
  for (const [words, id] of [[/resolver/, "d-resolver-kind"], [/disclosure/, "d-disclosure"], [/default/, "d-default"]]) {
    if (words.test(text)) return id;
  }
  const numbered = /\bfield (\d+)\b/.exec(text);
  let n = numbered ? Number(numbered[1]) : 0;
  if (!(n >= 1 && n <= design.fields.length)) {
    n = 1 + design.fields.findIndex((f) => f.name && new RegExp(`(^|[^a-z0-9_])${f.name}([^a-z0-9_]|$)`).test(text));
  }
  if (n >= 1) {
    const id = `d-f${n}`;
    for (const [words, part] of [[/max_length/, "max_length"], [/\bmin\b/, "min"], [/\bmax\b/, "max"],
      [/\blength\b/, "length"], [/choice/, "choices"], [/kind/, "kind"]]) {
      if (words.test(text) && document.getElementById(`${id}-${part}`)) return `${id}-${part}`;
    }
    return `${id}-name`;
  }
  for (const [words, id] of [[/\brounds?\b/, "d-rounds"], [/points/, "d-points"], [/title/, "d-title"], [/field/, "d-fields"],
    [/\bplayers?\b/, "players"]]) { // the form's own player names
    if (words.test(text)) return id;
  }
  return null;
}
