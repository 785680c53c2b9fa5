// 6 nimmt!'s deals and defaults, recomputed in the browser (the interface:
// web/static/js/crypto/fairness.js): a port of domain/rules/six_nimmt (deal, default_pick, fewest_bullheads_row).
//
// The deal reads the draw and discard piles. Every card is in exactly one of the draw pile,
// the discard pile, a row or a hand, and every hand is empty when a round is dealt, so before
// each deal: draw = the deck less every card dealt so far (a deal that takes a discarded
// card first puts the discard pile back into the draw pile, as apply_deal does), and
// discard = the deck less the draw pile less the cards on the rows (the rows as the last
// StepResolved left them). Hands come from DealRevealed once the match is over.

const DECK = Array.from({ length: 104 }, (_, i) => i + 1);
const ROW_COUNT = 4;
const HAND_SIZE = 10;
const VIRTUAL = "virtual";

const ascending = (cards) => [...cards].sort((a, b) => a - b);

/** The bullheads a card is worth (55: 7; multiples of 11: 5; of 10: 3; of 5: 2; else 1). */
export function bullheads(card) {
  if (card === 55) return 7;
  if (card % 11 === 0) return 5;
  if (card % 10 === 0) return 3;
  if (card % 5 === 0) return 2;
  return 1;
}

/** The row worth the fewest bullheads, ties to the lowest index (the too-low default). */
export function fewestBullheadsRow(rows) {
  let best = 0;
  const worth = rows.map((row) => row.reduce((sum, card) => sum + bullheads(card), 0));
  for (let i = 1; i < worth.length; i += 1) if (worth[i] < worth[best]) best = i;
  return best;
}

function split(rows, hands, everyone) {
  const pub = {};
  if (rows !== null) pub.rows = [...rows];
  if (everyone.includes(VIRTUAL)) pub.virtual_hand = [...hands.get(VIRTUAL)];
  const priv = {};
  for (const player of everyone) if (player !== VIRTUAL) priv[player] = [...hands.get(player)];
  return { public: pub, private: priv };
}

/**
 * Deal a round (domain/rules/six_nimmt/rules.py SixNimmt.deal): the draw pile (ascending) is
 * shuffled and dealt from the front, in round 1 four row cards, then ten cards to each human
 * in seat order, then ten to the virtual player; an empty draw pile is replaced by the
 * discard pile (ascending), shuffled with the same stream. `state`: {round, draw, discard,
 * everyone (humans in seat order, then "virtual" when it plays)}.
 */
export async function deal(state, rng) {
  let draw = [...state.draw];
  await rng.shuffle(draw);
  let discard = [...state.discard];
  const take = async (count) => {
    const cards = [];
    for (let i = 0; i < count; i += 1) {
      if (!draw.length) {
        if (!discard.length) throw new Error("the deck has no card left to deal");
        [draw, discard] = [discard, []];
        await rng.shuffle(draw);
      }
      cards.push(draw.shift());
    }
    return cards;
  };
  const rows = state.round === 0 ? await take(ROW_COUNT) : null;
  const hands = new Map();
  for (const player of state.everyone) hands.set(player, ascending(await take(HAND_SIZE)));
  return split(rows, hands, state.everyone);
}

/** Follows one match's records to give each deal its state and each default its hand. */
export function follow(created) {
  const options = created.options || {};
  const humans = [...(created.players || [])];
  const everyone = options.virtual_player === false ? humans : [...humans, VIRTUAL];
  let draw = new Set(DECK); // null once a deal is not known in full
  let rows = []; // the rows as the last StepResolved left them
  let dealt = 0;
  let hands = null; // player -> cards still in hand, while known
  let unknown = null;

  const discardNow = () => {
    const onRows = new Set(rows.flat());
    return DECK.filter((card) => !draw.has(card) && !onRows.has(card));
  };

  return {
    players: humans,
    dealState() {
      if (unknown) return { unknown };
      return { state: { round: dealt, draw: ascending(draw), discard: discardNow(), everyone } };
    },
    deal,
    explicitProblem(state, pub, priv) {
      const cards = [...(pub.rows || []), ...everyone.flatMap((p) => (p === VIRTUAL ? pub.virtual_hand : priv[p]) || [])];
      const available = new Set([...state.draw, ...state.discard]);
      const seen = new Set();
      for (const card of cards) {
        if (seen.has(card)) return `card ${card} is dealt twice`;
        if (!available.has(card)) return `card ${card} cannot be dealt: it is on a row or in a hand`;
        seen.add(card);
      }
      if (cards.length !== (state.round === 0 ? ROW_COUNT : 0) + HAND_SIZE * everyone.length) {
        return `the deal names ${cards.length} cards, not ${HAND_SIZE} for every hand`;
      }
      return null;
    },
    applyDeal(step, pub, priv) {
      dealt += 1;
      if (!priv) {
        unknown = `the hands dealt in step ${step} are not disclosed yet`;
        hands = null;
      }
      if (!unknown) {
        hands = new Map(everyone.map((p) => [p, [...((p === VIRTUAL ? pub.virtual_hand : priv[p]) || [])]]));
        const cards = [...(pub.rows || []), ...[...hands.values()].flat()];
        const discard = new Set(discardNow());
        if (cards.some((card) => discard.has(card))) {
          for (const card of discard) draw.add(card); // the draw pile ran out: the discard pile joined it
        }
        for (const card of cards) draw.delete(card);
      }
      if (Array.isArray(pub.rows)) rows = pub.rows.map((card) => [card]);
    },
    resolved(data) {
      const outcome = data.outcome || {};
      for (const play of outcome.plays || []) {
        const hand = hands && hands.get(play.player);
        if (hand && hand.includes(play.card)) hand.splice(hand.indexOf(play.card), 1);
      }
      if (data.view && Array.isArray(data.view.rows)) rows = data.view.rows.map((row) => [...row]);
    },
    defaultPick(step, player) {
      if (!hands) return { unknown: unknown || `the hands of step ${step} are not disclosed yet` };
      const hand = hands.get(player);
      if (!hand || !hand.length) return { unknown: `${player} has no card left in step ${step}` };
      return { payload: { card: Math.min(...hand) }, why: `the lowest card in ${player}'s hand` };
    },
    decisionDefault(request) {
      const prompt = request.prompt || {};
      if (request.kind !== "take-row" || !Array.isArray(prompt.rows)) return null;
      const worth = prompt.rows.map((row) => row.reduce((sum, card) => sum + bullheads(card), 0));
      if (JSON.stringify(worth) !== JSON.stringify(prompt.bullheads)) {
        return { problem: `the rows are worth ${worth.join(", ")} bullheads, not ${(prompt.bullheads || []).join(", ")} as the request says` };
      }
      return { payload: { row: fewestBullheadsRow(prompt.rows) }, why: "the row worth the fewest bullheads (ties: the lowest row)" };
    },
    partName(key) {
      if (key === "rows") return "the row cards";
      if (key === "virtual_hand") return "the virtual player's hand";
      return `${key}'s hand`;
    },
  };
}
