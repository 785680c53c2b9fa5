// Picking Nine's dealer-room controls: rank 7 cards of the pool by tapping them in order
// (tap a ranked card to take it out, move it up or down), choose a ban and a priority.
// The pick starts from the player's current pick for this step, else from the default pick,
// so what is shown first is always a pick the service accepts (and the one it would apply).

const WANTS = 7;
const COLOURS = { R: "red", G: "green", B: "blue", Y: "yellow" };
const GRAY_ZERO = "0";

/** "red 7", "the gray zero". */
function spoken(card) {
  return card === GRAY_ZERO ? "the gray zero" : `${COLOURS[card[0]] || card[0]} ${card.slice(1)}`;
}

/** The colour class of a card: p9-R, p9-G, p9-B, p9-Y, p9-0. */
function colourClass(card) {
  return `p9-${card === GRAY_ZERO ? "0" : card[0]}`;
}

/** "1st", "2nd", "3rd", "4th"... */
function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/** Why `pick` is not a complete Picking Nine pick for this pool, or "" when it is one. */
export function problem(pick, pool, players) {
  if (!pick || typeof pick !== "object") return "Choose your pick.";
  const wants = Array.isArray(pick.wants) ? pick.wants : [];
  if (wants.length < WANTS) {
    const left = WANTS - wants.length;
    return `Rank ${left} more card${left === 1 ? "" : "s"} (${wants.length} of ${WANTS} ranked).`;
  }
  if (wants.length > WANTS) return `Rank only ${WANTS} cards.`;
  if (new Set(wants).size !== wants.length) return "Rank each card only once.";
  const stranger = wants.find((card) => !pool.includes(card));
  if (stranger !== undefined) return `${stranger} is not in this round's pool: take it out of your list.`;
  if (pick.ban !== null && !pool.includes(pick.ban)) return "Choose a card of this round's pool to ban, or no ban.";
  if (!Number.isInteger(pick.priority) || pick.priority < 1 || pick.priority > players) {
    return `Choose a priority from 1 to ${players}.`;
  }
  return "";
}

/** The pick in one plain sentence. */
export function pickWords(pick) {
  const ban = pick.ban === null ? "ban nothing" : `ban ${pick.ban}`;
  return `You want ${pick.wants.join(", ")} (most wanted first), ${ban}, and play priority ${pick.priority}.`;
}

/** The pick to start from: the current pick of this step, else the default, if it is whole. */
function startingPick(room, pool, players) {
  const step = room.status && room.status.step ? room.status.step.number : null;
  const current = room.me && room.me.current_pick;
  const candidates = [];
  if (current && current.pick && current.step === step) candidates.push(current.pick);
  if (room.me && room.me.default_pick) candidates.push(room.me.default_pick);
  for (const pick of candidates) {
    const normal = { wants: [...(pick.wants || [])], ban: pick.ban ?? null, priority: pick.priority };
    if (problem(normal, pool, players) === "") return normal;
  }
  return { wants: [], ban: null, priority: players };
}

/** Build the pick's controls: the pool to rank, the want-list, the ban, the priority. */
export function pickControls(root, ctx) {
  const { el } = ctx;
  const pool = [...((ctx.room.public && ctx.room.public.pool) || [])];
  const players = (ctx.room.status.players || []).length;
  if (pool.length === 0 || players === 0) {
    root.append(el("p", { className: "small", textContent: "No pool is open yet: wait for the host to deal the round." }));
    return;
  }
  const pick = startingPick(ctx.room, pool, players);

  // -- 1. the want-list: tap the pool's cards in order --------------------------------------
  const box = el("div", { className: "p9" });
  const note = el("p", { className: "p9-note small", "aria-live": "polite" });
  const count = el("p", { className: "p9-count" });
  const cardButtons = new Map();
  const poolGroup = el("div", { className: "p9-pool", role: "group", "aria-label": "The pool: tap cards in the order you want them" });
  for (const card of pool) {
    const badge = el("span", { className: "p9-rank", "aria-hidden": "true" });
    const button = el(
      "button",
      {
        type: "button",
        className: `p9-card ${colourClass(card)}`,
        "aria-label": card,
        "aria-pressed": "false",
        title: spoken(card),
      },
      el("span", { className: "p9-code", textContent: card }),
      badge,
    );
    button.addEventListener("click", () => tapCard(card));
    cardButtons.set(card, { button, badge });
    poolGroup.append(button);
  }
  const list = el("ol", { className: "p9-list", "aria-label": "Your want-list, most wanted first" });
  const fill = el("button", { type: "button", className: "secondary p9-tool", textContent: "Fill the rest in pool order" });
  fill.addEventListener("click", () => {
    for (const card of pool) if (pick.wants.length < WANTS && !pick.wants.includes(card)) pick.wants.push(card);
    note.textContent = "";
    update();
  });
  const clear = el("button", { type: "button", className: "secondary p9-tool", textContent: "Clear my list" });
  clear.addEventListener("click", () => {
    pick.wants = [];
    note.textContent = "";
    update();
  });
  box.append(
    el("h3", { className: "p9-title", textContent: `1. Rank ${WANTS} cards of the pool, most wanted first` }),
    el("p", {
      className: "small",
      textContent: `Tap cards in the order you want them; tap a ranked card to take it out. You receive the first card of your list still there when your turn to pick comes.`,
    }),
    poolGroup,
    count,
    note,
    list,
    el("div", { className: "p9-tools" }, fill, clear),
  );

  // -- 2. the ban ---------------------------------------------------------------------------
  const ban = el("select", { id: "p9-ban", className: "p9-ban" });
  ban.append(el("option", { value: "", textContent: "no ban" }));
  for (const card of pool) {
    ban.append(el("option", { value: card, textContent: card === GRAY_ZERO ? "0 (the gray zero)" : card }));
  }
  ban.value = pick.ban ?? "";
  ban.addEventListener("change", () => {
    pick.ban = ban.value === "" ? null : ban.value;
    update();
  });
  box.append(
    el("h3", { className: "p9-title" }, "2. ", el("label", { htmlFor: "p9-ban", textContent: "Ban" })),
    el("p", { className: "p9-ban-row" }, ban),
    el("p", {
      className: "small",
      textContent: "The banned card is removed before anyone picks, but only if your priority number is the highest unique one.",
    }),
  );

  // -- 3. the priority ----------------------------------------------------------------------
  const priorityButtons = [];
  const priorities = el("div", { className: "p9-priorities", role: "group", "aria-label": "Priority" });
  for (let number = 1; number <= players; number += 1) {
    const button = el("button", {
      type: "button",
      className: "p9-priority",
      textContent: String(number),
      "aria-label": `priority ${number}`,
      "aria-pressed": "false",
    });
    button.addEventListener("click", () => {
      pick.priority = number;
      update();
    });
    priorityButtons.push(button);
    priorities.append(button);
  }
  const tiebreak = (ctx.room.public && ctx.room.public.tiebreak) || [];
  const order = tiebreak.map((name) => (name === ctx.player ? "you" : name)).join(" › ");
  box.append(
    el("h3", { className: "p9-title", textContent: `3. Priority, 1 to ${players}` }),
    priorities,
    el("p", {
      className: "p9-reminder small",
      textContent: `Unique numbers pick first, lowest first; then shared numbers, lowest first, by the tie-break list (${order}). Only the highest unique number's ban counts.`,
    }),
  );
  root.append(box);

  function tapCard(card) {
    const at = pick.wants.indexOf(card);
    if (at >= 0) {
      pick.wants.splice(at, 1);
      note.textContent = `${card} taken out of your list.`;
    } else if (pick.wants.length >= WANTS) {
      note.textContent = `Your list already holds ${WANTS} cards: tap a ranked card to take it out first.`;
      return;
    } else {
      pick.wants.push(card);
      note.textContent = "";
    }
    update();
  }

  function move(card, by) {
    const at = pick.wants.indexOf(card);
    const to = at + by;
    if (at < 0 || to < 0 || to >= pick.wants.length) return;
    pick.wants.splice(at, 1);
    pick.wants.splice(to, 0, card);
    update();
    // Keep the focus on the card's moved control, so a keyboard user can move it again.
    const again = list.querySelector(`button[aria-label="move ${card} ${by < 0 ? "up" : "down"}"]`);
    if (again && !again.disabled) again.focus();
  }

  function renderList() {
    list.replaceChildren();
    pick.wants.forEach((card, i) => {
      const up = el("button", { type: "button", className: "p9-move", textContent: "↑", "aria-label": `move ${card} up`, disabled: i === 0 });
      const down = el("button", {
        type: "button",
        className: "p9-move",
        textContent: "↓",
        "aria-label": `move ${card} down`,
        disabled: i === pick.wants.length - 1,
      });
      up.addEventListener("click", () => move(card, -1));
      down.addEventListener("click", () => move(card, 1));
      list.append(
        el(
          "li",
          { className: "p9-item" },
          el("span", { className: `p9-chip ${colourClass(card)}`, textContent: card, "aria-hidden": "true" }),
          el("span", { className: "p9-item-words", textContent: `${ordinal(i + 1)}: ${spoken(card)}` }),
          up,
          down,
        ),
      );
    });
  }

  function update() {
    for (const [card, { button, badge }] of cardButtons) {
      const rank = pick.wants.indexOf(card);
      button.setAttribute("aria-pressed", String(rank >= 0));
      button.classList.toggle("p9-ranked", rank >= 0);
      badge.textContent = rank >= 0 ? String(rank + 1) : "";
    }
    for (const [i, button] of priorityButtons.entries()) {
      button.setAttribute("aria-pressed", String(pick.priority === i + 1));
    }
    if (ban.value !== (pick.ban ?? "")) ban.value = pick.ban ?? "";
    count.textContent = `${pick.wants.length} of ${WANTS} ranked.`;
    fill.disabled = pick.wants.length >= WANTS;
    renderList();
    const livePool = (ctx.room.public && ctx.room.public.pool) || pool;
    const payload = { wants: [...pick.wants], ban: pick.ban, priority: pick.priority };
    const wrong = problem(payload, livePool, players);
    if (wrong) {
      ctx.unchoose(wrong);
    } else if (ctx.isLegal && !ctx.isLegal(payload)) {
      ctx.unchoose("That pick is not one the rules allow; change it.");
    } else {
      const banWanted = pick.ban !== null && pick.wants.includes(pick.ban);
      const also = banWanted ? ` If your ban counts, nobody receives ${pick.ban}, not even you.` : "";
      ctx.choose(payload, pickWords(payload) + also);
    }
  }

  update();
}
