// Apocalypse deals nothing; a player who sends nothing makes no move and earns a penalty point
// (web/static/js/crypto/fairness.js recomputes the default from this).
export const NO_DEALS = { payload: { from: null, to: null }, why: "no move (a penalty point)" };
