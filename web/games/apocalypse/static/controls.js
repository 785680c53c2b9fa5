// Apocalypse's dealer-room controls (loaded by room.js through the games registry).
//
// The player moves by tapping the board the room draws from their seat: every square is a
// button named "square a1" .. "square e5". Tap one of your pieces: its legal targets light
// up (from the room's list of legal moves). Tap a lit square to choose that move. A pawn
// that reaches its last rank while you already have two knights needs a drop square: the
// room then lights the allowed drop squares and asks you to tap one. Any other square makes
// an illegal move: it can still be sent, but only after the room asks you to confirm, since
// it costs a penalty point.

const CONFIRM = "This move is illegal: it costs you a penalty point. Send it anyway?";
const HIT = /^square ([a-e][1-5])$/;
const FILES = "abcde";
const MARKS = ["own", "selected", "target", "chosen", "warn", "drop"];

/** The board text (ranks 5 down to 1, files a to e) as {square: piece letter}. */
function readBoard(text) {
  const board = {};
  String(text || "").split(" ").forEach((row, i) => {
    [...row].forEach((piece, j) => {
      if (piece !== "." && j < FILES.length) board[`${FILES[j]}${5 - i}`] = piece;
    });
  });
  return board;
}

const kindOf = (piece) => (piece.toUpperCase() === "N" ? "knight" : "pawn");

export function pickControls(root, ctx) {
  // What the player has tapped so far: a piece (from), its target (to), a drop square.
  let from = null;
  let to = null;
  let drop = null;

  const hint = ctx.el("p", { className: "apoc-hint" });
  hint.setAttribute("aria-live", "polite");
  const again = ctx.el("button", {
    type: "button",
    className: "apoc-again",
    textContent: "Start my move again",
    onclick: () => { from = null; to = null; drop = null; update(); },
  });
  const help = ctx.el("p", {
    className: "apoc-help small muted",
    textContent: "Tap one of your pieces on the board, then one of the lit squares. "
      + "Any other square makes an illegal move: the room asks you before sending it, "
      + "because it costs a penalty point.",
  });
  root.append(hint, again, help);

  // ---------------------------------------------------------------- reading the room

  const publicView = () => ctx.room.public || {};
  const board = () => readBoard(publicView().board);
  const white = () => ((publicView().colors || {}).white === ctx.player);
  const lastRank = () => (white() ? 5 : 1);
  const mine = (square) => {
    const piece = board()[square];
    return Boolean(piece) && (piece === piece.toUpperCase()) === white();
  };
  const legal = () => (Array.isArray(ctx.room.me && ctx.room.me.legal) ? ctx.room.me.legal : null);
  const movesFrom = (square) => (legal() || []).filter((m) => m.from === square);
  const targets = (square) => [...new Set(movesFrom(square).map((m) => m.to))].sort();
  const dropsFor = (a, b) => movesFrom(a).filter((m) => m.to === b && m.drop).map((m) => m.drop);
  /** A lit target whose every legal form names a drop square. */
  const needsDrop = (a, b) => {
    const forms = movesFrom(a).filter((m) => m.to === b);
    return forms.length > 0 && forms.every((m) => m.drop);
  };
  const isLegal = (payload) => {
    const list = legal();
    if (!list) return null; // unknown: the service judges it when the turn resolves
    // A drop named where none is needed is ignored by the rules: compare without it.
    const dropped = needsDrop(payload.from, payload.to) ? payload.drop || null : null;
    const key = JSON.stringify([payload.from, payload.to, dropped]);
    return list.some((m) => JSON.stringify([m.from, m.to, m.drop || null]) === key);
  };
  const pieceWords = (square) => {
    const piece = board()[square];
    return piece ? `your ${kindOf(piece)} on ${square}` : `the empty square ${square}`;
  };
  const enemyOn = (square) => {
    const piece = board()[square];
    return piece && !mine(square) ? `, attacking the ${kindOf(piece)} there` : "";
  };

  // ---------------------------------------------------------------- the choice in words

  function payload() {
    const out = { from, to };
    if (drop) out.drop = drop;
    return out;
  }

  function moveWords(move, legalNow) {
    const piece = board()[move.from];
    const what = piece ? kindOf(piece) : "piece";
    const base = `You move your ${what} from ${move.from} to ${move.to}`;
    if (legalNow === false) {
      return `This move (${move.from} to ${move.to}${move.drop ? `, dropped on ${move.drop}` : ""}) `
        + "is illegal: it is not made, your piece stays where it is and it costs you a penalty "
        + "point (two lose the match).";
    }
    if (move.drop) {
      return `${base}: it reaches rank ${lastRank()} and, as you already have two knights, `
        + `it is dropped on ${move.drop}.`;
    }
    if (what === "pawn" && Number(move.to[1]) === lastRank()) {
      return `${base}${enemyOn(move.to)}: it reaches rank ${lastRank()} and becomes a knight.`;
    }
    return `${base}${enemyOn(move.to)}.`;
  }

  // ---------------------------------------------------------------- the board's marks

  function mark() {
    for (const cls of MARKS) ctx.table.clear(cls);
    for (const square of Object.keys(board())) if (mine(square)) ctx.table.mark(`square ${square}`, "own", true);
    if (from) ctx.table.mark(`square ${from}`, "selected", true);
    const choosingDrop = to && needsDrop(from, to);
    if (from && !choosingDrop) for (const t of targets(from)) ctx.table.mark(`square ${t}`, "target", true);
    if (to) ctx.table.mark(`square ${to}`, "chosen", true);
    if (choosingDrop) {
      for (const d of dropsFor(from, to)) {
        ctx.table.mark(`square ${d}`, "drop", true);
        if (!drop) ctx.table.mark(`square ${d}`, "target", true);
      }
    }
    if (drop) ctx.table.mark(`square ${drop}`, "chosen", true);
  }

  function update() {
    mark();
    again.disabled = !from;
    if (!from) {
      const words = "Tap one of your pieces to move it.";
      hint.textContent = "";
      ctx.unchoose(words);
      return;
    }
    if (!to) {
      const lit = targets(from);
      const words = lit.length
        ? `You picked ${pieceWords(from)}: tap a lit square to move it there (${lit.join(", ")}).`
        : `You picked ${pieceWords(from)}: it has no legal move now. Tap another of your pieces.`;
      hint.textContent = "";
      ctx.unchoose(words);
      return;
    }
    if (!drop && needsDrop(from, to)) {
      const words = `Your pawn reaches rank ${lastRank()}, but you already have two knights, so it `
        + `cannot become one: tap the empty square where it is dropped instead (lit; not on rank ${lastRank()}).`;
      hint.textContent = "";
      ctx.unchoose(words);
      return;
    }
    const move = payload();
    const legalNow = isLegal(move);
    ctx.table.mark(`square ${to}`, "warn", legalNow === false);
    if (drop) ctx.table.mark(`square ${drop}`, "warn", legalNow === false);
    const words = moveWords(move, legalNow);
    if (legalNow === false) {
      hint.textContent = "Tap a lit square instead for a legal move, or another of your pieces.";
    } else if (drop) {
      hint.textContent = "Tap another lit square to drop the pawn there instead, or another of your pieces.";
    } else {
      hint.textContent = "Tap another lit square or another of your pieces to change your move.";
    }
    if (legalNow === false) ctx.choose(move, words, { confirm: CONFIRM });
    else ctx.choose(move, words);
  }

  // ---------------------------------------------------------------- taps

  function tap(square) {
    if (to && needsDrop(from, to) && !mine(square)) { // the drop square, or back to the target
      if (square === to) { to = null; drop = null; } else drop = square;
      update();
      return;
    }
    if (mine(square)) { // pick (or put back) a piece of yours
      from = square === from && !to ? null : square;
      to = null;
      drop = null;
      update();
      return;
    }
    if (!from) {
      const piece = board()[square];
      hint.textContent = piece
        ? `The ${kindOf(piece)} on ${square} is your opponent's. Tap one of your own pieces.`
        : `There is no piece on ${square}. Tap one of your own pieces.`;
      return;
    }
    to = square;
    drop = null;
    update();
  }

  ctx.table.enable(null);
  ctx.table.onHit((name) => {
    const found = HIT.exec(String(name));
    if (found) tap(found[1]);
  });

  // Start from the pick already sent in this step, if any.
  const current = ctx.room.me && ctx.room.me.current_pick;
  const step = ctx.room.status && ctx.room.status.step;
  const pick = current && current.pick;
  if (pick && pick.from && pick.to && step && current.step === step.number) {
    ({ from, to } = pick);
    drop = pick.drop || null;
  }
  update();
}
