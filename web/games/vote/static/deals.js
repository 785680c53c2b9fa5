// The vote deals nothing; a voter who sends nothing abstains (web/static/js/crypto/fairness.js
// recomputes the default from this).
export const NO_DEALS = { payload: { vote: null }, why: "an abstention" };
