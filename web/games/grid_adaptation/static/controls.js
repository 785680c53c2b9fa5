// Grid Adaptation's dealer-room controls (RULINGS.md section 4).
//
// A round: tap empty cells on the grid ("cell H8") with a counter ("2 of 3 cells"); a toggle
// "Place a reserve tile" makes the next tapped cell your reserve tile; in rounds 4 and 7 the
// buttons "flip bit 0/1/2" flip that bit of your sequence (numbered from the left, as the
// rules do); "buy 1 reserve tile" ... buy reserve tiles with garnets at the rules' prices.
// The EC vote: one button per candidate, named by the candidate.

const COLUMNS = "ABCDEFGHIJKLMNO";
const FIRST_ROUND_TILES = 3;
const LATER_ROUND_TILES = 1;
const FLIP_ROUNDS = [4, 7];
const MAX_PURCHASE = 8;
const FIRST_RESERVE_PRICE = 2; // domain/rules/grid_adaptation/scoring.py

// The prices of domain/rules/grid_adaptation/scoring.py, in the same closed form:
// reserve_price(bought) = 2 << bought; reserve_cost(bought, n) = (2 << (bought+n)) - (2 << bought).
export function reservePrice(bought) {
  return FIRST_RESERVE_PRICE * 2 ** bought;
}

export function reserveCost(bought, count) {
  return FIRST_RESERVE_PRICE * 2 ** (bought + count) - FIRST_RESERVE_PRICE * 2 ** bought;
}

/** How many reserve tiles the player bought so far: what they spent is 2^(b+1) - 2. */
export function boughtFrom(brought, available) {
  const spent = Math.max(0, brought - available);
  const bought = Math.round(Math.log2(spent + FIRST_RESERVE_PRICE)) - 1;
  return reserveCost(0, bought) === spent ? bought : null;
}

/** Cells as a sentence: "H7", "H7 and I8", "H7, I8 and A1". */
function cellsInWords(cells) {
  if (cells.length <= 1) return cells.join("");
  return `${cells.slice(0, -1).join(", ")} and ${cells[cells.length - 1]}`;
}

function flipped(sequence, bit) {
  return sequence.slice(0, bit) + (sequence[bit] === "0" ? "1" : "0") + sequence.slice(bit + 1);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The empty cells of a grid text (15 rows of "." or a digit). */
function emptyCells(grid) {
  const empty = [];
  grid.forEach((line, row) => {
    [...line].forEach((char, column) => {
      if (char === ".") empty.push(`${COLUMNS[column]}${row + 1}`);
    });
  });
  return empty;
}

function toggle(button, on) {
  button.setAttribute("aria-pressed", String(on));
}

// --- A round ---------------------------------------------------------------------------------

function roundControls(root, ctx) {
  const { el, table } = ctx;
  const room = () => ctx.room;
  const number = room().public.round + 1;
  const wanted = number === 1 ? FIRST_ROUND_TILES : LATER_ROUND_TILES;
  const canFlip = FLIP_ROUNDS.includes(number);
  const empty = new Set(emptyCells(room().public.grid));
  const view = () => room().me.view || {};
  const brought = () => Number(((room().status.options || {}).garnets || {})[ctx.player] || 0);
  const bought = () => boughtFrom(brought(), view().garnets_available || 0);
  const choice = { tiles: [], reserve: null, flip: null, buy: 0, reserveMode: false };

  // The current pick of this step, when it is still a valid one, is where we start.
  const current = room().me.current_pick || {};
  const step = room().status.step || {};
  if (current.pick && current.step === step.number) {
    const pick = current.pick;
    const tiles = (pick.tiles || []).filter((c) => empty.has(c));
    if (tiles.length === (pick.tiles || []).length && tiles.length <= wanted) choice.tiles = tiles;
    if (pick.reserve && empty.has(pick.reserve) && !choice.tiles.includes(pick.reserve)) choice.reserve = pick.reserve;
    if (canFlip && [0, 1, 2].includes(pick.flip)) choice.flip = pick.flip;
    if (Number.isInteger(pick.buy_reserves)) choice.buy = pick.buy_reserves;
  }

  // What the round asks, and the counter.
  const ask = number === 1
    ? `Round 1: tap ${FIRST_ROUND_TILES} empty cells for your tiles. Tap a chosen cell again to take it back.`
    : `Round ${number}: tap 1 empty cell for your tile. Tap it again to take it back.`;
  const counter = el("p", { className: "ga-counter", id: "ga-counter", "aria-live": "polite" });
  const note = el("p", { className: "small ga-note", "aria-live": "polite" });
  root.append(el("p", { textContent: ask }), counter, note);

  // The reserve tile.
  const reserveButton = el("button", {
    type: "button",
    className: "choice ga-reserve-toggle",
    textContent: "Place a reserve tile",
    "aria-pressed": "false",
  });
  const reserveLine = el("p", { className: "small ga-reserve-line", "aria-live": "polite" });
  const reserveBox = el(
    "div",
    { className: "ga-section", role: "group", "aria-label": "Reserve tile" },
    el("h3", { textContent: "Reserve tile" }),
    el("p", {
      className: "small",
      textContent:
        "A reserve tile is an extra tile on top of this round's, at most one a round. It carries your sequence like any tile; if another player picks the same cell, no tile goes there and it is spent. Press the button, then tap its cell.",
    }),
    reserveButton,
    reserveLine,
  );
  root.append(reserveBox);

  // The flip (rounds 4 and 7).
  const flipButtons = [];
  if (canFlip) {
    const group = el("div", { className: "choices ga-flips", role: "group", "aria-label": "Flip a bit" });
    const options = [[null, "no flip"], [0, "flip bit 0"], [1, "flip bit 1"], [2, "flip bit 2"]];
    for (const [bit, label] of options) {
      const caption = el("span", { className: "ga-caption small", id: `ga-flip-${bit === null ? "none" : bit}` });
      const button = el("button", {
        type: "button",
        className: "choice",
        textContent: label,
        "aria-pressed": "false",
        "aria-describedby": caption.id,
      });
      button.addEventListener("click", () => {
        choice.flip = bit;
        update();
      });
      flipButtons.push([bit, button, caption]);
      group.append(el("span", { className: "ga-option" }, button, caption));
    }
    root.append(
      el(
        "div",
        { className: "ga-section" },
        el("h3", { textContent: `Flip a bit (round ${number})` }),
        el("p", {
          className: "small",
          textContent:
            "You may flip one bit of your sequence: the bits are numbered 0, 1 and 2 from the left, and the flipped one turns 0 into 1 or 1 into 0. Your tiles placed from this round on carry the new sequence and this round already scores with it; tiles on the grid keep theirs.",
        }),
        group,
      ),
    );
  }

  // Buying reserve tiles with garnets.
  const buyBox = el("div", { className: "ga-section", role: "group", "aria-label": "Buy reserve tiles" });
  const buyButtons = [];
  const buildBuy = () => {
    const available = view().garnets_available || 0;
    const before = bought();
    buyBox.replaceChildren(el("h3", { textContent: "Buy reserve tiles" }));
    buyButtons.length = 0;
    if (before === null) {
      buyBox.append(el("p", { className: "small", textContent: `You have ${plural(available, "garnet")}.` }));
      return;
    }
    const next = reservePrice(before);
    const prices = before === 0
      ? `A reserve tile costs ${next} garnets and each one you buy after it doubles (${reservePrice(1)}, ${reservePrice(2)}, …).`
      : `Your next reserve tile costs ${next} garnets; each one after it doubles.`;
    if (available < next) {
      const none = available === 0 ? "You have no garnets" : `You have ${plural(available, "garnet")}`;
      buyBox.append(el("p", { className: "small", textContent: `${none}, so you cannot buy a reserve tile. ${prices}` }));
      return;
    }
    buyBox.append(
      el("p", {
        className: "small",
        textContent: `You have ${plural(available, "garnet")}. ${prices} A tile bought now can be played this round.`,
      }),
    );
    const group = el("div", { className: "choices ga-buys" });
    for (let n = 0; n <= MAX_PURCHASE; n += 1) {
      const cost = reserveCost(before, n);
      if (cost > available) break;
      const label = n === 0 ? "buy no reserve tile" : `buy ${plural(n, "reserve tile")}`;
      const caption = el("span", {
        className: "ga-caption small",
        id: `ga-buy-${n}`,
        textContent: n === 0 ? "keep your garnets" : `costs ${plural(cost, "garnet")}`,
      });
      const button = el("button", {
        type: "button",
        className: "choice",
        textContent: label,
        "aria-pressed": "false",
        "aria-describedby": caption.id,
        dataset: { cost: String(cost) },
      });
      button.addEventListener("click", () => {
        choice.buy = n;
        update();
      });
      buyButtons.push([n, button]);
      group.append(el("span", { className: "ga-option" }, button, caption));
    }
    buyBox.append(group);
  };
  buildBuy();
  root.append(buyBox);

  // Tapping the grid.
  const tap = (name) => {
    const cell = name.replace(/^cell /, "");
    if (!empty.has(cell)) return;
    note.textContent = "";
    if (choice.reserveMode) {
      choice.tiles = choice.tiles.filter((c) => c !== cell);
      choice.reserve = choice.reserve === cell ? null : cell;
      choice.reserveMode = false;
    } else if (choice.reserve === cell) {
      choice.reserve = null;
    } else if (choice.tiles.includes(cell)) {
      choice.tiles = choice.tiles.filter((c) => c !== cell);
    } else if (choice.tiles.length < wanted) {
      choice.tiles.push(cell);
    } else if (wanted === 1) {
      choice.tiles = [cell];
    } else {
      note.textContent = `You already chose ${wanted} cells: tap one of them to take it back first.`;
    }
    update();
  };
  reserveButton.addEventListener("click", () => {
    choice.reserveMode = !choice.reserveMode;
    note.textContent = choice.reserveMode ? "Now tap the cell for your reserve tile." : "";
    update();
  });

  // Everything shown from `choice`, and the pick it makes when it is complete.
  function update() {
    const reserves = view().reserves || 0;
    const available = view().garnets_available || 0;
    const before = bought();
    if (before === null || reserveCost(before, choice.buy) > available) choice.buy = 0;
    const canReserve = reserves + choice.buy > 0;
    if (!canReserve) {
      choice.reserve = null;
      choice.reserveMode = false;
    }
    table.clear("chosen");
    table.clear("ga-reserve");
    for (const cell of choice.tiles) table.mark(`cell ${cell}`, "chosen", true);
    if (choice.reserve) {
      table.mark(`cell ${choice.reserve}`, "chosen", true);
      table.mark(`cell ${choice.reserve}`, "ga-reserve", true);
    }
    counter.textContent = `${choice.tiles.length} of ${plural(wanted, "cell")}`;
    reserveButton.disabled = !canReserve;
    toggle(reserveButton, choice.reserveMode);
    const held = choice.buy ? `${reserves}, plus ${choice.buy} you buy` : String(reserves);
    const left = reserves + choice.buy - 1;
    reserveLine.textContent = !canReserve
      ? "You have no reserve tile left; buy one below to play one."
      : choice.reserve
        ? `Your reserve tile goes on ${choice.reserve} (tap it to take it back); ${left === 0 ? "none" : left} will be left.`
        : `Your reserve tiles: ${held}.`;
    const sequence = view().sequence || "";
    for (const [bit, button, caption] of flipButtons) {
      toggle(button, choice.flip === bit);
      caption.textContent = sequence
        ? bit === null ? `keep ${sequence}` : `${sequence} becomes ${flipped(sequence, bit)}`
        : "";
    }
    for (const [n, button] of buyButtons) toggle(button, choice.buy === n);

    const missing = wanted - choice.tiles.length;
    if (missing > 0) {
      ctx.unchoose(`Choose ${plural(missing, "more cell")}.`);
      return;
    }
    const payload = {
      tiles: [...choice.tiles],
      reserve: choice.reserve,
      flip: choice.flip,
      buy_reserves: choice.buy,
    };
    const parts = [`You place ${wanted === 1 ? "your tile" : "tiles"} on ${cellsInWords(choice.tiles)}`];
    if (choice.reserve) parts.push(`a reserve tile on ${choice.reserve}`);
    if (choice.flip !== null) {
      parts.push(sequence ? `flip bit ${choice.flip} (your sequence becomes ${flipped(sequence, choice.flip)})` : `flip bit ${choice.flip}`);
    }
    if (choice.buy) parts.push(`buy ${plural(choice.buy, "reserve tile")} for ${plural(reserveCost(before, choice.buy), "garnet")}`);
    const last = parts.length > 1 ? ` and ${parts.pop()}` : "";
    ctx.choose(payload, `${parts.join(", ")}${last}.`);
  }

  table.enable([...empty].map((c) => `cell ${c}`));
  table.onHit(tap);
  update();
}

// --- The EC vote -----------------------------------------------------------------------------

function voteControls(root, ctx) {
  const { el, table } = ctx;
  table.onHit(null);
  table.enable([]);
  const me = ctx.room.me;
  const candidates = (me.view && me.view.ec_candidates) || (me.legal || []).map((p) => p.vote);
  const current = (me.current_pick && me.current_pick.pick) || {};
  root.append(
    el("p", {
      textContent:
        "The lowest score is tied, so the ToL winners vote for the Elimination Candidate (EC) among the tied players. Tap the player you vote for: the most votes makes the EC; a tie goes to the candidate whose voters hold the most garnets, then to fair randomness.",
    }),
  );
  const group = el("div", { className: "choices", role: "group", "aria-label": "EC candidates" });
  const buttons = [];
  const pick = (button, vote) => {
    for (const b of buttons) toggle(b, b === button);
    ctx.choose({ vote }, vote === ctx.player ? "You vote for yourself as the EC." : `You vote for ${vote} as the EC.`);
  };
  for (const vote of candidates) {
    const button = el("button", { type: "button", className: "choice", textContent: vote, "aria-pressed": "false" });
    button.addEventListener("click", () => pick(button, vote));
    buttons.push(button);
    group.append(button);
  }
  root.append(group);
  const chosen = buttons.find((b) => b.textContent === current.vote);
  if (chosen) pick(chosen, current.vote);
  else ctx.unchoose("Tap the player you vote for.");
}

export function pickControls(root, ctx) {
  const kind = ctx.room.me.kind || (ctx.room.status.step || {}).kind;
  root.classList.add("ga-controls");
  if (kind === "ec-vote") voteControls(root, ctx);
  else roundControls(root, ctx);
}
