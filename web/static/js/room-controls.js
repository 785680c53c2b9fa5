// The contract between the dealer room and a game's controls module
// (web/games/<game>/static/controls.js), and the controls of a game without one.
//
// A controls module may export:
//   pickControls(root, ctx)      builds the pick's controls into `root` when a step opens
//   decisionControls(root, ctx)  the same for a decision the rules ask of the player
// `ctx`:
//   ctx.room      the room's data (GET /api/matches/<id>/players/<p>/room), kept up to date
//   ctx.player    the player; ctx.custody "sealed" or "self"
//   ctx.table     the picture's tappable regions (room-table.js): onHit(fn), mark(name, cls, on),
//                 clear(cls), enable(names | null), hits (name -> button)
//   ctx.choose(payload, words, {confirm})  the complete choice so far, in one plain sentence;
//                 `confirm` is a question asked before sending (an illegal move)
//   ctx.unchoose(words)  the choice is not complete yet ("Choose 2 more cells.")
//   ctx.el(tag, props, ...children)  makes an element
//   ctx.isLegal(payload)  whether the listed legal picks hold it (true when none are listed)

/** Make an element: props are properties (className, textContent, type, onclick...),
 * `dataset`, and attributes for names with a dash ("aria-label"). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.includes("-")) node.setAttribute(key, String(value));
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** JSON with sorted keys, to compare two payloads. */
export function sameJSON(value) {
  if (Array.isArray(value)) return `[${value.map(sameJSON).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sameJSON(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Whether `payload` is among the room's listed legal picks (true when they are not listed). */
export function isLegal(room, payload) {
  const legal = room.me && room.me.legal;
  if (!Array.isArray(legal)) return true;
  const wanted = sameJSON(payload);
  return legal.some((pick) => sameJSON(pick) === wanted);
}

/** A payload in plain words: its values, "card 37", "vote ana". */
export function plainPick(payload) {
  if (!payload || typeof payload !== "object") return String(payload);
  return Object.entries(payload)
    .filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? sameJSON(v) : v}`)
    .join(", ");
}

/** A game without controls of its own: a button per listed legal pick (else the JSON field). */
export function genericPickControls(root, ctx) {
  const legal = ctx.room.me.legal;
  if (!Array.isArray(legal) || legal.length === 0) {
    root.append(el("p", { className: "small", textContent: "Type your pick under Advanced below." }));
    document.getElementById("advanced").open = true;
    return;
  }
  const group = el("div", { className: "choices", role: "group", "aria-label": "Your choices" });
  const buttons = [];
  for (const pick of legal) {
    const label = plainPick(pick);
    const button = el("button", { type: "button", className: "choice", textContent: label, "aria-pressed": "false" });
    button.addEventListener("click", () => {
      for (const b of buttons) b.setAttribute("aria-pressed", String(b === button));
      ctx.choose(pick, `You pick ${label}.`);
    });
    buttons.push(button);
    group.append(button);
  }
  root.append(group);
}

/** A decision of a game without controls: a button per answer the prompt lists, if any. */
export function genericDecisionControls(root, ctx) {
  root.append(el("p", { className: "small", textContent: "Type your decision under Advanced below." }));
}
