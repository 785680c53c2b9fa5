// A custom game deals nothing. A missing pick gets the design's default pick, every field
// given (null where the default leaves it empty), or, without one, every field null: the player
// takes no part in the round. The host's declaration defaults to no winner and no note.
// (web/static/js/crypto/fairness.js recomputes both from this.)

const NO_DECLARATION = { winners: [], note: "" };

/** The default pick the design gives (every field, null when empty), and why, in words. */
export function designDefault(options) {
  const fields = Array.isArray(options && options.fields) ? options.fields : [];
  const given = options && options.default && typeof options.default === "object" ? options.default : null;
  const payload = Object.fromEntries(fields.map((f) => [f.name, given && given[f.name] !== undefined ? given[f.name] : null]));
  return { payload, why: given ? "the default pick the host designed" : "no pick: the player takes no part in the round" };
}

/** What fairness.js recomputes of a custom match: the default pick and the declaration's. */
export function noDeals(created) {
  return {
    ...designDefault(created.options || {}),
    decisionDefault: (data) => (data.kind === "declare"
      ? { payload: structuredClone(NO_DECLARATION), why: "no winner and no note" }
      : null),
  };
}
