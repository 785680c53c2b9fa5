// Two thirds of the average: quick picks of a few numbers.
export function pickChoices(me, status) {
  return [0, 22, 33, 50, 67].map((n) => [String(n), { number: n }]);
}
