// The vote's dealer-room controls (loaded by room.js through the games registry): one quick
// pick per candidate.

/** A button per candidate: the match's `candidates` option, else the players. */
export function pickChoices(me, status) {
  const candidates = (status.options && status.options.candidates) || status.players;
  return candidates.map((c) => [c, { vote: c }]);
}
