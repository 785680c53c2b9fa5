// 6 nimmt!'s dealer-room controls (loaded by room.js through the games registry; the contract
// is in web/static/js/room-controls.js): the hand as cards with their bullheads, one button a
// card ("card 37"), and the row to take, tapped on the table ("row 2") when a card was lower
// than every row end. Rows are numbered 0 to 3, as everywhere else.
import { bullheads } from "./deals.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const BULLHEAD_PATH = "M0 0 L2.2 2.4 L5.8 2.4 L8 0 L7.4 4.2 L5.6 8 L2.4 8 L0.6 4.2 Z";
const ROWS = ["row 0", "row 1", "row 2", "row 3"];
const ROW_LIMIT = 5; // a row holds five cards; the sixth takes them

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const rowHeads = (row) => row.reduce((sum, card) => sum + bullheads(card), 0);
const parityOf = (card) => (card % 2 === 0 ? "even" : "odd");
const minus = (n) => (n < 0 ? `−${-n}` : String(n));

/** Whether `card` may go on row `index` (the marked row takes only the parity it shows). */
function mayEnter(card, index, action) {
  return !action || action.row !== index || parityOf(card) === action.parity;
}

/** The row `card` goes on (the largest end below it among rows it may enter), or null: too low. */
export function landingRow(card, rows, action) {
  let best = null;
  rows.forEach((row, index) => {
    const end = row[row.length - 1];
    if (end < card && mayEnter(card, index, action) && (best === null || end > rows[best][rows[best].length - 1])) {
      best = index;
    }
  });
  return best;
}

/** "lower than every row end", with the Even/Odd row named when its parity is what blocks. */
function tooLowWhy(card, rows, action) {
  if (action && rows[action.row] && rows[action.row][rows[action.row].length - 1] < card && !mayEnter(card, action.row, action)) {
    return `lower than every row end it may enter (row ${action.row} takes only ${action.parity} cards)`;
  }
  return "lower than every row end";
}

function validRows(rows) {
  return Array.isArray(rows) && rows.length === ROWS.length && rows.every((r) => Array.isArray(r) && r.length > 0);
}

/** The rows and the action card the page knows now (read at event time: the room is live). */
function table(ctx) {
  const pub = ctx.room.public || {};
  return { rows: validRows(pub.rows) ? pub.rows : null, action: pub.action_card || null };
}

/** The drawing of a card's bullheads, as the picture draws them. */
function headsIcon(count) {
  const perLine = count > 5 ? 4 : count;
  const lines = Math.ceil(count / perLine);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${perLine * 10} ${lines * 10}`);
  svg.setAttribute("class", "sn-heads");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (let i = 0; i < count; i += 1) {
    const line = Math.floor(i / perLine);
    const across = Math.min(perLine, count - line * perLine);
    const x = (perLine - across) * 5 + (i % perLine) * 10 + 1;
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", BULLHEAD_PATH);
    path.setAttribute("transform", `translate(${x} ${line * 10 + 1})`);
    svg.append(path);
  }
  return svg;
}

/** A card of the hand: a real button named "card 37", drawn like the picture's cards. */
function cardButton(ctx, card, lowWhy) {
  const heads = bullheads(card);
  const button = ctx.el(
    "button",
    {
      type: "button",
      className: `sn-card sn-h${heads}${lowWhy ? " sn-low" : ""}`,
      "aria-label": `card ${card}`,
      "aria-pressed": "false",
      title: `${card}: ${plural(heads, "bullhead")}${lowWhy ? ` (${lowWhy}: it takes a row)` : ""}`,
      dataset: { card: String(card) },
    },
    headsIcon(heads),
    ctx.el("span", { className: "sn-number", textContent: String(card) }),
    ctx.el("span", { className: "sn-count", textContent: plural(heads, "bullhead") }),
  );
  if (lowWhy) button.append(ctx.el("span", { className: "sn-flag", textContent: "takes a row" }));
  return button;
}

/** What playing `card` would do, in one or two plain sentences, and the row to mark. */
function playWords(ctx, card) {
  const { rows, action } = table(ctx);
  if (!rows) return { words: `You play card ${card}.`, row: null, how: null };
  const index = landingRow(card, rows, action);
  if (index === null) {
    return { words: `You play card ${card}. Your ${card} is ${tooLowWhy(card, rows, action)}: you will take a row.`, row: null, how: "low" };
  }
  const row = rows[index];
  if (row.length >= ROW_LIMIT) {
    return {
      words: `You play card ${card}. It would be the sixth card of row ${index}: you would take that row (${plural(rowHeads(row), "bullhead")}) unless a lower card gets there first.`,
      row: index,
      how: "sixth",
    };
  }
  return { words: `You play card ${card}: it goes on row ${index}, after ${row[row.length - 1]}.`, row: index, how: "placed" };
}

/** The hand: tap a card to choose it; cards that would take a row are flagged before sending. */
export function pickControls(root, ctx) {
  const hand = ((ctx.room.me && ctx.room.me.view && ctx.room.me.view.hand) || []).filter(Number.isInteger);
  ctx.table.onHit(null);
  ctx.table.enable([]);
  if (hand.length === 0) {
    root.append(ctx.el("p", { className: "small", textContent: "You have no card to play in this step." }));
    return;
  }
  const { rows, action } = table(ctx);
  const lows = rows ? hand.filter((card) => landingRow(card, rows, action) === null) : [];
  root.append(ctx.el("p", { className: "sn-hint", textContent: "Your hand: tap the card you play." }));
  const group = ctx.el("div", { className: "sn-hand", role: "group", "aria-label": "Your hand" });
  const buttons = new Map();
  for (const card of hand) {
    const button = cardButton(ctx, card, lows.includes(card) ? tooLowWhy(card, rows, action) : null);
    button.addEventListener("click", () => select(card));
    buttons.set(card, button);
    group.append(button);
  }
  root.append(group);
  if (lows.length) {
    const which = lows.length === 1 ? `Your ${lows[0]} is` : `Your ${lows.join(", ")} are`;
    const enter = action ? (lows.length === 1 ? "it may enter " : "they may enter ") : "";
    root.append(ctx.el("p", { className: "sn-hint sn-warn", textContent: `${which} lower than every row end ${enter}(marked “takes a row”): playing one means taking a row.` }));
  }

  function select(card) {
    const payload = { card };
    for (const [c, b] of buttons) b.setAttribute("aria-pressed", String(c === card));
    ctx.table.clear("sn-landing");
    ctx.table.clear("warn");
    if (ctx.isLegal && !ctx.isLegal(payload)) {
      ctx.unchoose(`Card ${card} is not one you may play now; choose another card.`);
      return;
    }
    const said = playWords(ctx, card);
    if (said.row !== null) ctx.table.mark(ROWS[said.row], said.how === "sixth" ? "warn" : "sn-landing", true);
    ctx.choose(payload, said.words);
  }

  const current = ctx.room.me.current_pick || {};
  const step = ctx.room.status && ctx.room.status.step;
  const already = current.pick && Number.isInteger(current.pick.card) ? current.pick.card : null;
  if (already !== null && buttons.has(already) && (!step || current.step === step.number)) {
    select(already);
  } else {
    ctx.unchoose("Tap a card of your hand.");
  }
}

/** The row to take: tap it on the table; each row's cards and bullheads are listed here too. */
export function decisionControls(root, ctx) {
  const decision = (ctx.room.status && ctx.room.status.step && ctx.room.status.step.decision) || {};
  const prompt = decision.prompt && typeof decision.prompt === "object" ? decision.prompt : {};
  const rows = validRows(prompt.rows) ? prompt.rows : table(ctx).rows;
  if (decision.kind !== "take-row" || !rows) {
    root.append(ctx.el("p", { className: "small", textContent: "Tap a row on the table." }));
  }
  const action = prompt.action_card || null;
  const card = Number.isInteger(prompt.card) ? prompt.card : null;
  const heads = rows ? rows.map(rowHeads) : [0, 0, 0, 0];
  const fewest = heads.reduce((best, h, i) => (h < heads[best] ? i : best), 0);
  if (rows) {
    const list = ctx.el("ul", { className: "sn-rows", "aria-label": "The rows you may take" });
    rows.forEach((row, i) => {
      const marks = [];
      if (action && action.row === i) marks.push(`${action.parity} only`);
      if (i === fewest) marks.push("the default");
      list.append(ctx.el("li", { dataset: { row: String(i) } },
        ctx.el("strong", { textContent: `Row ${i}` }),
        ` (${row.join(", ")}): ${plural(heads[i], "bullhead")}${marks.length ? ` · ${marks.join(" · ")}` : ""}`));
    });
    root.append(ctx.el("p", { className: "sn-hint", textContent: "Tap the row you take on the table." }), list);
  }
  ctx.table.clear("sn-landing");
  ctx.table.clear("warn");
  ctx.table.clear("chosen");
  ctx.table.mark(ROWS[fewest], "sn-default", true);
  ctx.table.enable(ROWS);
  ctx.table.onHit((name) => {
    const index = ROWS.indexOf(name);
    if (index < 0) return;
    ctx.table.clear("chosen");
    ctx.table.mark(name, "chosen", true);
    for (const li of root.querySelectorAll(".sn-rows li")) li.classList.toggle("sn-chosen", li.dataset.row === String(index));
    const points = ((ctx.room.public || {}).points || {})[ctx.player];
    const after = Number.isInteger(points) ? ` (${minus(points)} → ${minus(points - heads[index])})` : "";
    const starts = card === null ? "your card starts it" : `your ${card} starts it`;
    const off = heads[index] === 1 ? "its 1 bullhead comes off" : `its ${heads[index]} bullheads come off`;
    ctx.choose({ row: index }, `You take row ${index}: ${off} your points${after} and ${starts}.`);
  });
  ctx.unchoose("Tap a row on the table.");
}
