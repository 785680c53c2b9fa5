// Grid Adaptation's deal and defaults, recomputed in the browser (the interface:
// web/static/js/crypto/fairness.js): a port of domain/rules/grid_adaptation (deal_sequences,
// default_pick). Round 1 alone deals: each player's secret sequence, disclosed by DealRevealed after the match.

/** The eight sequences 000..111 in ascending order. */
export const SEQUENCES = Array.from({ length: 8 }, (_, i) => i.toString(2).padStart(3, "0"));

/**
 * Deal each player a unique sequence (deal_sequences): the eight sequences in ascending order
 * are shuffled and the i-th player in seat order takes the i-th. `state`: {players}.
 */
export async function deal(state, rng) {
  const sequences = await rng.shuffled(SEQUENCES);
  const priv = {};
  state.players.forEach((player, i) => {
    priv[player] = { sequence: sequences[i] };
  });
  return { public: {}, private: priv };
}

/** Follows one match's records to give the deal its players and each default its kind. */
export function follow(created) {
  const players = [...(created.players || [])];
  return {
    players,
    dealState() {
      return { state: { players } };
    },
    deal,
    explicitProblem(state, pub, priv) {
      const given = players.map((p) => priv[p] && priv[p].sequence);
      const bad = given.find((s) => !SEQUENCES.includes(s));
      if (bad !== undefined) return `${JSON.stringify(bad)} is not three bits such as "010"`;
      const twice = given.find((s, i) => given.indexOf(s) !== i);
      if (twice !== undefined) return `sequence ${twice} is dealt twice; every player's sequence is unique`;
      if (Object.keys(priv).length !== players.length) return "the deal gives sequences to people who do not play";
      return null;
    },
    applyDeal() {},
    resolved() {},
    defaultPick(step, player, opened) {
      if (opened.kind === "ec-vote") return { payload: { vote: null }, why: "an abstention" };
      return {
        payload: { tiles: [], reserve: null, flip: null, buy_reserves: 0 },
        why: "no tiles, no reserve, no flip, no purchase",
      };
    },
    decisionDefault() {
      return null;
    },
    partName(key) {
      return `${key}'s sequence`;
    },
  };
}
