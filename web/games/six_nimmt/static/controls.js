// 6 nimmt!'s dealer-room controls (loaded by room.js through the games registry): a quick
// pick per card in hand, and a button per row when a too-low card must take one.

/** A button per card of the player's hand. */
export function pickChoices(me) {
  if (me.view && Array.isArray(me.view.hand)) {
    return me.view.hand.map((card) => [String(card), { card }]);
  }
  return [];
}

/** A button per row to take, with its cards and bullheads. */
export function decisionChoices(decision) {
  const rows = decision.prompt && (decision.prompt.rows || decision.prompt.choices);
  if (decision.kind === "take-row" && Array.isArray(rows)) {
    const heads = decision.prompt.bullheads || [];
    return rows.map((row, i) => [`row ${i + 1}: ${row.join(" ")} (${heads[i] ?? "?"} bullheads)`, { row: i }]);
  }
  return [];
}
