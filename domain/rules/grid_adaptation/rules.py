"""The rules object of Grid Adaptation: set-up, steps, the deal, resolution and views.

See :mod:`domain.rules.grid_adaptation` for the rules and the wire format.
"""

from __future__ import annotations

import math
import re
from itertools import permutations
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    STOCK_NAMES,
    SUGGESTED_PLAYERS,
    BadDeal,
    BadOptions,
    Deal,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    RulesError,
    State,
    StepSpec,
    check_options_object,
    check_whole,
    clone,
    describe,
    distinct_names,
    player_list,
)
from domain.rules.grid_adaptation.grid import (
    ALL_CELLS,
    BIRTH_NEIGHBOURS,
    NEIGHBOURS,
    SIZE,
    cell_name,
    grid_text,
    life_step,
    place_tiles,
    reading_order,
)
from domain.rules.grid_adaptation.picks import (
    FIRST_ROUND_TILES,
    FLIP_ROUNDS,
    LATER_ROUND_TILES,
    check_round_pick,
    check_vote,
)
from domain.rules.grid_adaptation.scoring import (
    MAX_GARNETS,
    MAX_PURCHASE,
    SEQUENCES,
    deal_sequences,
    flip_bit,
    garnets_earned,
    lowest_scorers,
    reserve_cost,
    score_sequences,
    settle_ec_vote,
    tokens_of_life,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng
    from domain.rules.grid_adaptation.grid import Cell

ROUNDS = 8
START_RESERVES = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 8
_BITS_RE = re.compile(r"[01]{3}")


# --- Validation helpers -------------------------------------------------------------


def _check_players(players: Sequence[str]) -> list[str]:
    players = player_list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        msg = f"grid-adaptation takes 2 to 8 players, not {len(players)}"
        raise BadOptions(msg)
    return distinct_names(players)


class GridAdaptation(Rules):
    """Grid Adaptation: eight rounds of sealed placements and one Life step each."""

    name = "grid-adaptation"
    display_name = "Grid Adaptation"
    version = "1"
    disclosure = Disclosure.AT_END
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_is_legal = False  # no tile placed (or, in the EC vote, an abstention)

    def options_schema(self) -> list[Option]:
        """Return the one option: the garnets each player brings."""
        return [
            Option(
                "garnets",
                OptionKind.PER_PLAYER_INTEGER,
                {},
                "the garnets each player brings to buy reserve tiles with; left out, none",
                minimum=0,
                maximum=MAX_GARNETS,
            )
        ]

    def default_players(self, options: Mapping[str, Any]) -> list[str]:
        """Return the players the garnets name, then stock names, at least three.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        named = list(self.normalise_options(options)["garnets"])
        count = min(max(len(named), SUGGESTED_PLAYERS), MAX_PLAYERS)
        return [*named, *(name for name in STOCK_NAMES if name not in named)][:count]

    def pick_fields(self, kind: str) -> list[PickField]:
        """Return a round's tiles, reserve tile, flip and purchase; or the EC vote."""
        if kind == "ec-vote":
            return [PickField("vote", FieldKind.TEXT, "the player tied lowest you vote EC")]
        return [
            PickField(
                "tiles",
                FieldKind.TEXT_LIST,
                "the empty cells you place tiles on: 3 in round 1, 1 in every later round",
            ),
            PickField(
                "reserve",
                FieldKind.TEXT,
                "an empty cell for one of your reserve tiles",
                required=False,
                nullable=True,
            ),
            PickField(
                "flip",
                FieldKind.INTEGER,
                "in rounds 4 and 7, the bit of your sequence to flip, 0 to 2 from the left",
                required=False,
                nullable=True,
            ),
            PickField(
                "buy_reserves",
                FieldKind.INTEGER,
                "how many reserve tiles to buy with garnets (2, then each one doubles)",
                required=False,
            ),
        ]

    # --- Options and set-up ---------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with ``garnets`` filled in (``{}``: 0 for everyone).

        :raises BadOptions: for an unknown option or a ``garnets`` value that is not a map
            from names to whole numbers >= 0.
        """
        options = check_options_object(options, "grid-adaptation", ("garnets",))
        garnets = options.get("garnets", {})
        if not isinstance(garnets, dict) or len(garnets) > MAX_PLAYERS:
            msg = (
                f"garnets maps each player to a whole number of garnets from 0 to {MAX_GARNETS}, "
                f"for at most {MAX_PLAYERS} players"
            )
            raise BadOptions(msg)
        for player, count in garnets.items():
            check_whole(count, f"the garnets of {describe(player)}", 0, MAX_GARNETS, BadOptions)
        return {"garnets": dict(garnets)}

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before round 1: an empty grid, three reserve tiles each.

        :raises BadOptions: for an unknown option, bad garnets, garnets for a non-player,
            or fewer than 2 or more than 8 players.
        """
        options = self.normalise_options(options)
        players = _check_players(players)
        strangers = [p for p in options["garnets"] if p not in players]
        if strangers:
            msg = f"garnets names {describe(strangers[0])}, who is not a player of the match"
            raise BadOptions(msg)
        zero = dict.fromkeys(players, 0)
        return {
            "players": players,
            "garnets": {p: options["garnets"].get(p, 0) for p in players},
            "phase": "rounds",
            "round": 0,
            "tiles": {},
            "sequences": {},
            "held": {p: [] for p in players},
            "reserves": dict.fromkeys(players, START_RESERVES),
            "bought": dict(zero),
            "spent": dict(zero),
            "sequence_scores": dict.fromkeys(SEQUENCES, 0),
            "scores": dict(zero),
            "tokens": {},
            "tol": [],
            "earned": {},
            "ec": None,
            "ec_by": None,
            "ec_candidates": [],
            "ec_voters": [],
            "ec_votes": {},
            "ec_tally": {},
        }

    # --- Steps ----------------------------------------------------------------------

    def next_step(self, state: State) -> StepSpec | None:
        """Rounds 1 to 8 (round 1 deals), then the EC vote when one is needed."""
        players = tuple(state["players"])
        if state["phase"] == "rounds":
            return StepSpec(kind="round", submitters=players, needs_deal=state["round"] == 0)
        if state["phase"] == "ec-vote":
            return StepSpec(kind="ec-vote", submitters=tuple(state["ec_voters"]))
        return None

    # --- The deal -------------------------------------------------------------------

    def deal(self, state: State, rng: Rng) -> Deal:
        """Deal each player a unique sequence (see :func:`deal_sequences`)."""
        sequences = deal_sequences(state["players"], rng)
        return Deal(private={p: {"sequence": s} for p, s in sequences.items()})

    def check_deal(self, state: State, deal: Mapping[str, Any]) -> Deal:
        """Validate ``{"sequences": {player: "010", ...}}``.

        :raises BadDeal: unless every player gets exactly one unique three-bit sequence.
        """
        if state["round"] != 0 or state["phase"] != "rounds":
            msg = "only round 1 deals the sequences"
            raise BadDeal(msg)
        if not isinstance(deal, dict) or set(deal) != {"sequences"}:
            msg = 'a grid-adaptation deal is {"sequences": {player: "010", ...}}'
            raise BadDeal(msg)
        sequences = deal["sequences"]
        if not isinstance(sequences, dict):
            msg = 'sequences maps each player to a three-bit string such as "010"'
            raise BadDeal(msg)
        for player in sequences:
            if player not in state["players"]:
                msg = f"the deal gives a sequence to {describe(player)}, who is not a player"
                raise BadDeal(msg)
        for player in state["players"]:
            if player not in sequences:
                msg = f"the deal gives no sequence to {describe(player)}; every player gets one"
                raise BadDeal(msg)
            bits = sequences[player]
            if not isinstance(bits, str) or _BITS_RE.fullmatch(bits) is None:
                msg = (
                    f"the sequence of {describe(player)}, {describe(bits)}, is not three bits "
                    'such as "010"'
                )
                raise BadDeal(msg)
        values = [sequences[p] for p in state["players"]]
        repeated = sorted({s for s in values if values.count(s) > 1})
        if repeated:
            msg = f"sequence {repeated[0]} is dealt twice; every player's sequence is unique"
            raise BadDeal(msg)
        return Deal(private={p: {"sequence": sequences[p]} for p in state["players"]})

    def scenario_deal(self, deal: Deal) -> dict[str, Any] | None:
        """``{"sequences": {player: bits}}``: each player's recorded sequence.

        >>> RULES.scenario_deal(Deal(private={"ana": {"sequence": "010"}}))
        {'sequences': {'ana': '010'}}
        """
        private = dict(deal.private)
        return {
            "sequences": {
                p: v.get("sequence") if isinstance(v, dict) else v for p, v in private.items()
            }
        }

    def apply_deal(self, state: State, deal: Deal) -> State:
        """Give each player their sequence."""
        new = clone(state)
        new["sequences"] = {p: deal.private[p]["sequence"] for p in state["players"]}
        return new

    # --- Submissions ----------------------------------------------------------------

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Validate a round pick or an EC vote and return it normalised.

        :raises IllegalPick: for every case listed in the package docstring.
        """
        if state["phase"] == "rounds":
            if player not in state["players"]:
                msg = f"{describe(player)} is not a player of this match"
                raise IllegalPick(msg)
            return check_round_pick(state, player, payload)
        if state["phase"] == "ec-vote":
            if player not in state["ec_voters"]:
                msg = f"{describe(player)} has no vote: only the ToL winners vote for the EC"
                raise IllegalPick(msg)
            return check_vote(state, player, payload)
        msg = "the match has finished; nothing more is submitted"
        raise IllegalPick(msg)

    def default_pick(self, state: State, player: str) -> Payload:
        """No tiles, no reserve, no flip, no purchase; in the EC vote, abstain."""
        del player
        if state["phase"] == "ec-vote":
            return {"vote": None}
        return {"tiles": [], "reserve": None, "flip": None, "buy_reserves": 0}

    # --- Legal picks ----------------------------------------------------------------

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Every round pick (ordered tiles, then purchase, reserve, flip) or EC vote, lazily.

        Round 1 alone has 225 x 224 x 223 ordered tile triples, so nothing is listed.
        """
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            yield from ({"vote": candidate} for candidate in state["ec_candidates"])
        if state["phase"] != "rounds" or player not in state["players"]:
            return
        empty, wanted, flips, buys = self._pick_space(state, player)
        for tiles in permutations(empty, wanted):
            for buy in buys:
                reserves: list[Cell | None] = [None]
                if state["reserves"][player] + buy >= 1:
                    reserves += [cell for cell in empty if cell not in tiles]
                for reserve in reserves:
                    for flip in flips:
                        yield {
                            "tiles": list(tiles),
                            "reserve": reserve,
                            "flip": flip,
                            "buy_reserves": buy,
                        }

    def count_legal_picks(self, state: State, player: str) -> int:
        """Count the picks :meth:`generate_legal_picks` yields, by a closed form."""
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            return len(state["ec_candidates"])
        if state["phase"] != "rounds" or player not in state["players"]:
            return 0
        empty, wanted, flips, buys = self._pick_space(state, player)
        free = len(empty) - wanted  # cells left for the reserve tile
        reserves = sum(1 + (free if state["reserves"][player] + buy >= 1 else 0) for buy in buys)
        return math.perm(len(empty), wanted) * reserves * len(flips)

    @staticmethod
    def _pick_space(
        state: State, player: str
    ) -> tuple[list[Cell], int, tuple[int | None, ...], list[int]]:
        """Return the empty cells, the tiles wanted, the flips and the affordable buys."""
        number = state["round"] + 1
        empty = [cell for cell in ALL_CELLS if cell not in state["tiles"]]
        wanted = FIRST_ROUND_TILES if number == 1 else LATER_ROUND_TILES
        flips: tuple[int | None, ...] = (None, 0, 1, 2) if number in FLIP_ROUNDS else (None,)
        available = state["garnets"][player] - state["spent"][player]
        bought = state["bought"][player]
        buys = [n for n in range(MAX_PURCHASE + 1) if reserve_cost(bought, n) <= available]
        return empty, wanted, flips, buys

    # --- Resolution -----------------------------------------------------------------

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Resolve a round (flips, purchases, placement, Life step, scoring) or the EC vote.

        :raises RulesError: when the match has already finished.
        """
        del decisions
        if state["phase"] == "rounds":
            return self._resolve_round(state, picks, rng)
        if state["phase"] == "ec-vote":
            return self._resolve_ec_vote(state, picks, rng)
        msg = "the match has already finished"
        raise RulesError(msg)

    def _resolve_round(self, state: State, picks: Mapping[str, Payload], rng: Rng) -> Resolution:
        new = clone(state)
        players = new["players"]
        default: Payload = {"tiles": [], "reserve": None, "flip": None, "buy_reserves": 0}
        picks = {p: {**default, **picks.get(p, {})} for p in players}
        # 1. Flips, before everything else.
        for p in players:
            if picks[p]["flip"] is not None:
                new["sequences"][p] = flip_bit(new["sequences"][p], picks[p]["flip"])
        # 2. Purchases of reserve tiles.
        for p in players:
            buy = picks[p]["buy_reserves"]
            new["spent"][p] += reserve_cost(new["bought"][p], buy)
            new["bought"][p] += buy
            new["reserves"][p] += buy
        # 3. Placement; a played reserve tile is spent even on a collision.
        claims: dict[str, list[Cell]] = {}
        for p in players:
            claims[p] = list(picks[p]["tiles"])
            if picks[p]["reserve"] is not None:
                claims[p].append(picks[p]["reserve"])
                new["reserves"][p] -= 1
        placed_grid, placed, collisions = place_tiles(new["tiles"], claims, new["sequences"])
        # 4. One Life step from the grid after placement.
        after = life_step(placed_grid)
        born = reading_order(c for c in after if c not in placed_grid)
        vanished = reading_order(c for c in placed_grid if c not in after)
        survived = sum(1 for c in placed_grid if c in after)
        # 5. Scoring.
        round_scores = score_sequences(after)
        for s in SEQUENCES:
            new["sequence_scores"][s] += round_scores[s]
        for p in players:
            held = new["sequences"][p]
            new["held"][p].append(held)
            new["scores"][p] += round_scores[held]
        new["tiles"] = after
        new["round"] += 1
        if new["round"] == ROUNDS:
            new = self._award_results(new, rng)
        outcome = {
            "placed": placed,
            "collisions": collisions,
            "born": born,
            "survived": survived,
            "vanished": vanished,
            "round_scores": round_scores,
        }
        return Resolution(state=new, outcome=outcome)

    @staticmethod
    def _award_results(state: State, rng: Rng) -> State:
        """Award ToLs and garnets after round 8 and name the EC, or call the EC vote."""
        players, scores = state["players"], state["scores"]
        state["tokens"] = tokens_of_life(scores, players)
        state["tol"] = [p for p in players if p in state["tokens"]]
        state["earned"] = {p: garnets_earned(scores[p]) for p in players}
        lowest = lowest_scorers(scores, players)
        if len(lowest) == 1:
            state["ec"], state["ec_by"], state["phase"] = lowest[0], "fewest-points", "finished"
        elif state["tol"]:
            state["ec_candidates"], state["ec_voters"] = lowest, list(state["tol"])
            state["phase"] = "ec-vote"
        else:
            state["ec"], state["ec_by"], state["phase"] = rng.choice(lowest), "random", "finished"
        return state

    def _holdings(self, state: State, player: str) -> int:
        return int(state["garnets"][player] - state["spent"][player] + state["earned"][player])

    def _resolve_ec_vote(self, state: State, picks: Mapping[str, Payload], rng: Rng) -> Resolution:
        new = clone(state)
        votes = {v: picks.get(v, {}).get("vote") for v in new["ec_voters"]}
        holdings = {v: self._holdings(new, v) for v in new["ec_voters"]}
        ec, tally, decided_by = settle_ec_vote(votes, new["ec_candidates"], holdings, rng)
        new.update(ec=ec, ec_by=decided_by, ec_votes=votes, ec_tally=tally, phase="finished")
        return Resolution(state=new, outcome={"tally": tally, "ec": ec, "decided_by": decided_by})

    # --- Views ----------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        """Round, grid, sequence scores, finished; once finished the results too."""
        view: dict[str, Any] = {
            "round": state["round"],
            "grid": grid_text(state["tiles"]),
            "sequence_scores": dict(state["sequence_scores"]),
            "finished": state["phase"] == "finished",
        }
        if view["finished"]:
            view.update(
                player_scores=dict(state["scores"]),
                tol=list(state["tol"]),
                ec=state["ec"],
                garnets=dict(state["earned"]),
            )
        return view

    def private_view(self, state: State, player: str) -> dict[str, Any]:
        """The player's sequence, reserve tiles, spendable garnets, purchases and running score."""
        if player not in state["players"]:
            return {}
        view = {
            "sequence": state["sequences"].get(player),
            "reserves": state["reserves"][player],
            "garnets_available": state["garnets"][player] - state["spent"][player],
            "reserves_bought": state["bought"][player],
            "score": state["scores"][player],
        }
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            view["ec_candidates"] = list(state["ec_candidates"])
        return view

    def is_finished(self, state: State) -> bool:
        """Whether round 8 and any EC vote are over."""
        return bool(state["phase"] == "finished")

    def result(self, state: State) -> dict[str, Any]:
        """Scores, ToLs (and tokens), EC (and what decided it), garnets, sequences held."""
        return {
            "player_scores": dict(state["scores"]),
            "tol": list(state["tol"]),
            "tokens": dict(state["tokens"]),
            "ec": state["ec"],
            "ec_by": state["ec_by"],
            "ec_tally": dict(state["ec_tally"]),
            "ec_votes": dict(state["ec_votes"]),
            "garnets": dict(state["earned"]),
            "sequences_held": {p: list(h) for p, h in state["held"].items()},
        }

    # --- Bots -----------------------------------------------------------------------

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A legal pick: tiles next to the action, sometimes a reserve, flip or purchase.

        In round 1 the three tiles go in a random 3x3 block; later the tile goes on a
        random empty cell with 1 to 3 neighbouring tiles (any empty cell if none). In the
        EC vote, a uniformly drawn candidate.
        """
        if state["phase"] == "ec-vote":
            return {"vote": rng.choice(state["ec_candidates"])}
        if state["phase"] != "rounds":
            return self.default_pick(state, player)
        number = state["round"] + 1
        tiles_now = state["tiles"]
        empty = [c for c in ALL_CELLS if c not in tiles_now]
        if number == 1:
            centre = cell_name(1 + rng.below(SIZE - 2), 1 + rng.below(SIZE - 2))
            block = [centre, *NEIGHBOURS[centre]]
            tiles = reading_order(rng.shuffled(block)[:FIRST_ROUND_TILES])
        else:
            lively = [
                c
                for c in empty
                if 1 <= sum(n in tiles_now for n in NEIGHBOURS[c]) <= BIRTH_NEIGHBOURS
            ]
            tiles = [rng.choice(lively or empty)]
        buy = 0
        if rng.below(3) == 0:
            available = state["garnets"][player] - state["spent"][player]
            if reserve_cost(state["bought"][player], 1) <= available:
                buy = 1
        reserve = None
        if state["reserves"][player] + buy > 0 and rng.below(2) == 0:
            reserve = rng.choice([c for c in empty if c not in tiles])
        flip = None
        if number in FLIP_ROUNDS:
            draw = rng.below(4)  # 0, 1, 2: flip that bit; 3: no flip
            flip = draw if draw < len(SEQUENCES[0]) else None
        return {"tiles": tiles, "reserve": reserve, "flip": flip, "buy_reserves": buy}


RULES = GridAdaptation()
