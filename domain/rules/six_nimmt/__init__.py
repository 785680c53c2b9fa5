"""6 nimmt! with the virtual player and the Even/Odd action card (RULINGS.md section 1).

Rule texts: ``seeds/six-nimmt.txt`` and ``seeds/six-nimmt-even-odd.md``. The functions below
follow the order of the rulings: bullheads, rows, placement, sixth card, too low, the virtual
player, deck and deals, end, payload; then the Even/Odd action card.

Options (``normalise_options`` fills in the defaults and rejects anything else):

* ``virtual_player`` (bool, default ``true``): one virtual player, id ``virtual``, joins the
  humans. 2 to 9 humans with it, 2 to 10 without. A human may not be called ``virtual``.
* ``start_points`` (a whole number from 1 to 1,000,000, default 66): everybody's points at
  the start.
* ``action_card`` (``null`` or ``"even-odd"``, default ``null``).

Steps: one step is one turn, ``StepSpec(kind="turn", submitters=<humans in seat order>)``;
the first turn of each round also deals (``needs_deal``). The virtual player never submits:
``resolve`` computes its card. Payload ``{"card": 37}``; a missing pick is the lowest card in
hand. A card below every row end (or, with the action card, with no row it may enter) pauses
resolution with ``DecisionRequest(player, kind="take-row", prompt={"card", "rows",
"bullheads", "action_card"}, default={"row": <fewest bullheads, ties lowest index>})``; the
decision payload is ``{"row": i}`` with ``i`` in 0..3.

Rulings applied (RULINGS.md section 1):

* Bullheads: 55 → 7; other multiples of 11 → 5; multiples of 10 → 3; other multiples of 5 → 2;
  every other card → 1.
* Rows keep positions 0-3; a taken row keeps its position and restarts with the card.
* Cards resolve from smallest to largest; a card goes on the row whose rightmost card is the
  largest one below it. A sixth card takes the five cards and starts the row.
* Too low: the player takes a row of their choice (public decision after the reveal); the
  default and the virtual player's rule is the row worth the fewest bullheads, ties → the
  lowest index.
* Virtual player: public hand; it plays, among its cards higher than at least one row end it
  may enter, the one with the smallest gap to the row it would land on, ties → the lower
  card; with no such card, its lowest card. The card is chosen on the rows as they stand at
  the start of the turn; a row to take is chosen on the rows as they stand when it resolves.
* Deals: round 1 deals 4 row cards, then 10 cards to each human in seat order, then 10 to
  the virtual player. Taken and trimmed cards go to the discard pile; each row keeps only its
  rightmost card at the end of a round; an exhausted draw pile is replaced by the shuffled
  discard pile.
* End: checked only after the tenth turn of a round: if any player, the virtual player
  included, is at 0 or below, the match ends. Points may go below 0. The winners are the
  human(s) with the most points (ties all listed, in seat order); the virtual player is never
  ranked.
* Even/Odd: at set-up the action card goes on the row with the lowest starting card, showing
  its parity. The marked row takes only cards of the shown parity; placement looks only at
  rows the card may enter; a card with no such row is too low (any of the four rows may be
  taken). Whenever a row is taken, after the card starts it, the action card moves to the row
  with the lowest rightmost card among the three rows it is not on and shows that card's
  parity. It never counts towards the five-card limit and persists across rounds. The virtual
  player considers only rows its card may enter.

Randomness (the only use of the rng; ``resolve`` and ``check_*`` use none):

* ``deal``: the draw pile, in ascending order, is shuffled with ``rng.shuffle`` and dealt from
  the front: in round 1 first 4 row cards (rows 0, 1, 2, 3 in that order), then 10 cards to
  each human in seat order, then 10 to the virtual player. In round 1 the draw pile is the
  whole deck 1..104. When the draw pile runs out during the deal, the discard pile, in
  ascending order, is shuffled with ``rng.shuffle`` and dealing continues from its front.
* ``bot_pick``: ``rng.choice`` over the hand in ascending order.

Readings chosen where RULINGS.md is silent:

* Reading chosen: the state keeps the draw and discard piles in ascending order (their order
  carries no information), and every random deal shuffles the draw pile afresh. So the state
  after a deal depends only on which cards went where, and replaying the recorded deal with
  ``apply_deal`` rebuilds exactly the state a random deal produced. Shuffling a face-down
  remainder again changes no probability.
* Reading chosen: when a deal takes any card from the discard pile (a random deal only does so
  after the draw pile ran out), the rest of the discard pile joins the draw pile, as after a
  physical reshuffle. An explicit deal may name any card in the draw or the discard pile.
* Reading chosen: an explicit deal names ``rows`` in round 1 only (required there) and exactly
  10 cards for every human and, when enabled, for ``virtual``; all cards distinct.
* Reading chosen: the end check comes before trimming, as in the seed ("if any player has run
  out of points, the match ends. Otherwise, all cards left of the rightmost card ... are
  discarded"): the final rows stay as played.
* Reading chosen: the virtual player's gap ignores whether its card would be a sixth card; it
  follows the rule literally and does not avoid taking rows.
* Reading chosen: the virtual player's card is fixed before any card of the turn resolves, and
  its too-low row is chosen when its card resolves (this is the ruling; the card it plays is in
  the outcome's ``plays`` like every other card).
* Reading chosen: when several rows are taken in one turn, the action card moves after each
  take, before the next card resolves. A too-low card starts the row it takes even when its
  parity differs from the shown side; the action card then moves as usual.
* Reading chosen: ``hand_sizes`` in the public view lists the humans only (the virtual
  player's whole hand is public as ``virtual_hand``).
* Reading chosen: ``round`` and ``turn`` in the public view are those of the turn just played
  (0 and 0 before any); a deal does not change them.

Public view keys: ``round``, ``turn``, ``rows`` (4 lists of ints), ``points`` ({player: int},
``virtual`` included when enabled), ``action_card`` (``null`` or ``{"row": i, "parity":
"even"|"odd"}``), ``finished``, ``winners`` (humans; ``[]`` until finished), ``hand_sizes``
({human: n}), ``played`` ({player: card} of the last turn, ``virtual`` included; ``{}`` before
any) and, when enabled, ``virtual_hand`` (ascending). Private view: ``{"hand": [ascending]}``.

Outcome of a turn: ``{"plays": [{"player", "card", "row", "took", "bullheads", "reason"}, ...]
(resolution order; reason "placed" | "sixth-card" | "too-low"), "action_card_moves": [{"card",
"from", "to", "parity"}, ...], "round_end": bool, "finished": bool}``.
"""

from __future__ import annotations

from domain.rules.six_nimmt.cards import (
    DECK,
    ROW_COUNT,
    ROW_LIMIT,
    ActionCard,
    Card,
    Row,
    action_card_setup,
    bullheads,
    fewest_bullheads_row,
    is_sixth_card,
    landing_row,
    match_ends,
    may_enter,
    move_action_card,
    parity,
    row_bullheads,
    trim_rows,
    virtual_card,
    winners,
)
from domain.rules.six_nimmt.checks import (
    HAND_SIZE,
    MAX_HUMANS_WITH_VIRTUAL,
    MAX_HUMANS_WITHOUT_VIRTUAL,
    MIN_HUMANS,
    VIRTUAL,
)
from domain.rules.six_nimmt.rules import (
    DEFAULT_START_POINTS,
    EVEN_ODD,
    MAX_START_POINTS,
    OPTION_NAMES,
    RULES,
    TURNS_PER_ROUND,
    SixNimmt,
)

__all__ = [
    "DECK",
    "DEFAULT_START_POINTS",
    "EVEN_ODD",
    "HAND_SIZE",
    "MAX_HUMANS_WITHOUT_VIRTUAL",
    "MAX_HUMANS_WITH_VIRTUAL",
    "MAX_START_POINTS",
    "MIN_HUMANS",
    "OPTION_NAMES",
    "ROW_COUNT",
    "ROW_LIMIT",
    "RULES",
    "TURNS_PER_ROUND",
    "VIRTUAL",
    "ActionCard",
    "Card",
    "Row",
    "SixNimmt",
    "action_card_setup",
    "bullheads",
    "fewest_bullheads_row",
    "is_sixth_card",
    "landing_row",
    "match_ends",
    "may_enter",
    "move_action_card",
    "parity",
    "row_bullheads",
    "trim_rows",
    "virtual_card",
    "winners",
]
