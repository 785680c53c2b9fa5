// Picking Nine Possibilities' deals and defaults, recomputed in the browser (the interface:
// web/static/js/crypto/fairness.js): a port of domain/rules/picking_nine.py (deal_pool,
// ascending, default_submission). Everything it reads is public: the pools dealt so far and the
// holdings the rounds' StepResolved records show.

const COLOURS = ["R", "G", "B", "Y"];
const GRAY_ZERO = "0";
const POOL_SIZE = 8;
const WANTS = 7;
/** The coloured cards in the deck's reference order: R1..R10, G1..G10, B1..B10, Y1..Y10. */
export const DECK = COLOURS.flatMap((c) => Array.from({ length: 10 }, (_, i) => `${c}${i + 1}`));

const number = (card) => (card === GRAY_ZERO ? 0 : Number(card.slice(1)));
const orderKey = (card) => (card === GRAY_ZERO ? [0, 0] : [number(card), COLOURS.indexOf(card[0])]);

/** The cards in the default order: the gray zero first, then by number, then R, G, B, Y. */
export function ascending(cards) {
  return [...cards].sort((a, b) => {
    const [x, y] = [orderKey(a), orderKey(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

/**
 * Deal a round's 8 coloured cards (PickingNine.deal, deal_pool): the coloured cards not dealt
 * yet, in the reference order, are shuffled and the first 8 form the pool, recorded in the
 * default order. `state`: {dealt: [cards dealt in earlier rounds]}.
 */
export async function deal(state, rng) {
  const seen = new Set(state.dealt);
  const remaining = DECK.filter((card) => !seen.has(card));
  if (remaining.length < POOL_SIZE) throw new Error(`only ${remaining.length} coloured cards are left to deal`);
  await rng.shuffle(remaining);
  return { public: { pool: ascending(remaining.slice(0, POOL_SIZE)) }, private: {} };
}

/** Follows one match's records to give each deal its state and each default its pool. */
export function follow(created) {
  const players = [...(created.players || [])];
  const dealt = [];
  let grayTaken = false;
  let pool = null;

  return {
    players,
    dealState() {
      return { state: { dealt: [...dealt] } };
    },
    deal,
    explicitProblem(state, pub) {
      const cards = Array.isArray(pub.pool) ? pub.pool : [];
      if (cards.length !== POOL_SIZE) return `the pool lists ${cards.length} coloured cards, not ${POOL_SIZE}`;
      const seen = new Set();
      for (const card of cards) {
        if (!DECK.includes(card)) return `${JSON.stringify(card)} is not a coloured card`;
        if (seen.has(card)) return `${card} is listed twice in the pool`;
        if (state.dealt.includes(card)) return `${card} was dealt in an earlier round and every card is dealt once`;
        seen.add(card);
      }
      return null;
    },
    applyDeal(step, pub) {
      const coloured = Array.isArray(pub.pool) ? pub.pool : [];
      dealt.push(...coloured);
      pool = ascending([...coloured, ...(grayTaken ? [] : [GRAY_ZERO])]);
    },
    resolved(data) {
      const holdings = (data.view && data.view.holdings) || {};
      grayTaken = Object.values(holdings).some((cards) => Array.isArray(cards) && cards.includes(GRAY_ZERO));
    },
    defaultPick(step) {
      if (!pool) return { unknown: `no pool was dealt before step ${step}` };
      return {
        payload: { wants: pool.slice(0, WANTS), ban: null, priority: players.length },
        why: `the first ${WANTS} cards of the pool in the default order, no ban, priority ${players.length}`,
      };
    },
    decisionDefault() {
      return null;
    },
    partName(key) {
      return key === "pool" ? "the pool" : key;
    },
  };
}
