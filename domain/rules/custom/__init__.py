"""Custom games: a hidden-submission game the host designs (RULINGS.md section 5).

Hosts invent a new game for most rounds of a season; this rule set runs one with the same
commitments, receipts, disclosure and verification as the five, without writing code.
Wire name ``custom``, display name "Custom game".

The rulings of §5
-----------------

* Options (the design): ``{"title", "rounds" (1-50), "fields", "resolver", "disclosure"
  ("at-resolve" | "at-end", default "at-resolve"), "default" (a pick or null, default
  null), "points" (default 1)}``. Players: 2 to 30.
* Fields: 1 to 8, unique names of 1-32 characters ``[a-z0-9_]``, each one of
  ``integer`` (``min``/``max``, whole, -10^6 <= min <= max <= 10^6), ``choice``
  (``choices``: 2-40 distinct texts of 1-40 characters), ``player`` (``self``: false by
  default; true allows choosing oneself), ``ranking`` (``choices`` and ``length`` k:
  k distinct choices in order, 1 <= k <= number of choices), ``text`` (``max_length``
  1-500). Any field may say ``"optional": true``.
* Payload: an object with exactly the fields' names (an optional one may be missing or
  null), each valid for its field; anything else is refused at submission naming the
  field. JSON true/false are not numbers; choices and player names match exactly;
  text length counts code points.
* A missing submission gets ``default`` when the design gives one (it must be a valid
  pick), otherwise it is recorded as missing and takes no part.
* Resolvers, each step one round resolved on its own picks: ``lowest-unique`` /
  ``highest-unique`` over an integer field (the player whose value is the lowest / highest
  among the values chosen by exactly one player; none unique, no winner); ``plurality``
  over a choice or player field (``top``: the values chosen by the most players, all on a
  tie, sorted by code point; the winners: every player who chose a value in ``top``;
  nobody chose: ``top`` is []); ``host`` (after the reveal the host declares the winners,
  possibly none, and a note of up to 500 characters). A player whose resolver field is
  missing or null takes no part. Winners gain ``points``.
* Step outcome (``StepResolved``): ``winners``, ``top`` (plurality), ``note`` (host) and,
  with ``at-resolve`` disclosure only, ``values``. The host resolver with ``at-end`` is
  refused.
* Public state: exactly ``round`` (resolved steps), ``points`` (every player, from 0),
  ``outcomes`` (per resolved step: ``winners``, plus ``top`` for plurality),
  ``finished``, ``winners`` (every player with the most points once finished, else []).
* Disclosure: ``at-resolve`` reveals every pick when its step resolves; ``at-end`` keeps
  them sealed until the match ends (outcomes are public each step).

Readings where §5 is silent (each has a test in tests/unit/test_custom_rules.py)
-----------------------------------------------------------------------------------

* A design may leave out any setting. ``title`` defaults to "Custom game" (1 to 100
  printable characters), ``rounds`` to 3, ``fields`` to one integer field ``number`` from
  1 to 10 and ``resolver`` to ``lowest-unique`` over ``number``; a resolver naming a field
  the design lacks is refused. ``points`` is a whole number from 0 to 1000.
* Normalised options list every setting, every field its ``optional`` flag and every
  player field its ``self`` flag; unknown settings of the design, of a field or of the
  resolver are refused. Choice texts are printable (no control characters); a text is
  valid Unicode (no lone surrogates).
* A pick's normal form lists every field in design order; an optional field left out is
  ``null``. A self-custody commitment is to this normal form.
* A text field's value is 1 to ``max_length`` characters (an empty answer is "left
  empty": null, and only for an optional field).
* A ranking's value is a list of exactly ``length`` distinct choices, best first.
* The missing pick (no ``default``) is every field null, recorded as a default of a
  missing submission; it takes no part in any resolver. A pick with every (optional)
  field left empty resolves alike.
* A design's ``default`` must be valid for every player: a player field of it naming a
  player, with ``self`` false, would be one player's own name, so it is refused at
  set-up.
* The unique resolvers name at most one winner; plurality winners and the final
  ``winners`` are in seat order.
* ``values`` (at-resolve only) maps each player who took part, in seat order, to their
  value of the resolver's field; under the host resolver, which reads no one field, it
  maps each player who gave anything to their whole pick (the picks the host judged).
* The host resolver asks ``DecisionRequest(player="host", kind="declare", prompt={"round":
  n, "picks": {player: pick}}, default={"winners": [], "note": ""})``; a missed deadline
  declares no winner. A declaration is ``{"winners": [distinct players of the match],
  "note": text of at most 500 characters}`` (the note may be left out or null: ""); the
  winners keep the order the host gave. The outcome's ``note`` is always present.
* The match's final ``winners``: every player with the most points, so all players when
  nobody scored.
"""

from __future__ import annotations

from domain.rules.custom.rules import Custom

RULES = Custom()

__all__ = ["RULES", "Custom"]
