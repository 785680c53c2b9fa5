"""The rules object of Apocalypse, and the legal moves of a player in a state.

See :mod:`domain.rules.apocalypse` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.apocalypse.board import (
    BLACK,
    COLORS,
    KNIGHT,
    KNIGHT_LIMIT,
    PAWN,
    SQUARES,
    START_BOARD,
    WHITE,
    Color,
    Square,
    board_text,
    color_of,
    count,
    last_rank,
    other,
    parse_board,
    piece_of,
    rank_of,
)
from domain.rules.apocalypse.moves import NO_MOVE, Move, illegal_reason, moves_of, parse_move
from domain.rules.apocalypse.resolution import end_of_turn, penalise, promote, resolve_moves
from domain.rules.base import (
    JSON,
    BadOptions,
    Disclosure,
    Payload,
    Resolution,
    Rules,
    State,
    StepSpec,
    check_options_object,
    describe,
    player_list,
)
from domain.rules.schema import FieldKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng


# --------------------------------------------------------------------------------------
# A player's legal moves in a state


def color_of_player(state: State, player: str) -> Color:
    """Return the side a player plays.

    :raises ValueError: for a player who is not in the match.
    """
    for color in COLORS:
        if state["colors"][color] == player:
            return color
    msg = f"{describe(player)} does not play this match"
    raise ValueError(msg)


def legal_moves(state: State, player: str) -> Iterator[Payload]:
    """Yield the legal move payloads of ``player`` in the current position, lazily.

    :raises ValueError: for a player who is not in the match.

    >>> state = RULES.setup({}, ["ana", "ben"])
    >>> next(legal_moves(state, "ana"))
    {'from': 'a1', 'to': 'c2'}
    >>> sum(1 for _ in legal_moves(state, "ben"))
    9
    """
    board = parse_board(state["board"])
    color = color_of_player(state, player)
    return (move.payload() for move in moves_of(board, color))


def is_legal(state: State, player: str, payload: Mapping[str, Any]) -> bool:
    """Return whether a checked payload is a legal move of ``player`` now."""
    board = parse_board(state["board"])
    move = Move.from_payload(payload)
    return illegal_reason(board, color_of_player(state, player), move) is None


# --------------------------------------------------------------------------------------
# The rules object


class Apocalypse(Rules):
    """Apocalypse: simultaneous moves on a 5×5 board, five pawns and two knights a side."""

    name = "apocalypse"
    display_name = "Apocalypse"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = len(COLORS)
    max_players = len(COLORS)
    default_is_legal = False  # the missing-move marker, penalised

    def pick_fields(self, kind: str) -> list[PickField]:
        """Return the fields: the square moved from, the one moved to, a drop when needed."""
        del kind
        return [
            PickField("from", FieldKind.TEXT, "the square of the piece you move, a1 to e5"),
            PickField("to", FieldKind.TEXT, "the square it moves to"),
            PickField(
                "drop",
                FieldKind.TEXT,
                "where a promoting pawn goes when you already have two knights: an empty "
                "square off its last rank",
                required=False,
            ),
        ]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Apocalypse has no options.

        :raises BadOptions: for any option.
        """
        check_options_object(options, "apocalypse", ())
        return {}

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the start position: the first player is White, the second Black.

        :raises BadOptions: for any option, or unless there are two distinct players.
        """
        self.normalise_options(options)
        players = player_list(players)
        if len(players) != len(COLORS):
            msg = f"apocalypse is a duel for exactly 2 players, got {len(players)}"
            raise BadOptions(msg)
        if not all(isinstance(p, str) and p for p in players):
            msg = "each player is a non-empty name"
            raise BadOptions(msg)
        if players[0] == players[1]:
            msg = f"the two players must differ, got {describe(players[0])} twice"
            raise BadOptions(msg)
        return {
            "colors": {WHITE: players[0], BLACK: players[1]},
            "board": START_BOARD,
            "turn": 0,
            "penalties": {players[0]: 0, players[1]: 0},
            "finished": False,
            "result": None,
        }

    def next_step(self, state: State) -> StepSpec | None:
        """One turn in which both players move, White first in seat order."""
        if state["finished"]:
            return None
        return StepSpec(kind="turn", submitters=(state["colors"][WHITE], state["colors"][BLACK]))

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Accept any well-formed move; legality is judged when the turn resolves.

        :raises IllegalPick: when the payload is not a move at all.
        """
        del state, player
        return parse_move(payload)

    def default_pick(self, state: State, player: str) -> Payload:
        """A missing move: the marker ``{"from": None, "to": None}``, penalised."""
        del state, player
        return dict(NO_MOVE)

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Resolve one turn: legality, rules 1-5, promotion, penalties, end checks."""
        del decisions, rng
        colors: dict[Color, str] = dict(state["colors"])
        before = parse_board(state["board"])
        penalties = dict(state["penalties"])
        moves: dict[Color, Move] = {}
        report: dict[str, dict[str, Any]] = {}
        events: list[dict[str, Any]] = []
        for color in COLORS:
            player = colors[color]
            pick = picks[player]
            move = Move.from_payload(pick)
            reason = illegal_reason(before, color, move)
            entry: dict[str, Any] = {"from": pick.get("from"), "to": pick.get("to")}
            if "drop" in pick:
                entry["drop"] = pick["drop"]
            entry["legal"] = reason is None
            entry["reason"] = reason
            report[player] = entry
            if reason is None:
                assert move is not None  # noqa: S101 - a legal move was parsed
                moves[color] = move
            else:
                events.append(penalise(penalties, player, reason))
        moved, move_events = resolve_moves(before, moves, colors)
        after, promotion_events = promote(moved, moves, colors)
        result = end_of_turn(after, penalties, colors)
        text = board_text(after)
        new = {
            **state,
            "board": text,
            "turn": state["turn"] + 1,
            "penalties": penalties,
            "finished": result is not None,
            "result": result,
        }
        outcome = {
            "moves": report,
            "events": events + move_events + promotion_events,
            "board_before": state["board"],
            "board_after": text,
            "result": result,
        }
        return Resolution(state=new, outcome=outcome)

    def public_view(self, state: State) -> dict[str, Any]:
        """Turn, board text, penalties, finished, result and colours."""
        return {
            "turn": state["turn"],
            "board": state["board"],
            "penalties": dict(state["penalties"]),
            "finished": state["finished"],
            "result": None if state["result"] is None else dict(state["result"]),
            "colors": dict(state["colors"]),
        }

    def is_finished(self, state: State) -> bool:
        """Whether a side has lost or the match is drawn."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """The result ``{"outcome", "winner", "reason"}`` (all ``None`` before the end)."""
        if state["result"] is None:
            return {"outcome": None, "winner": None, "reason": None}
        return dict(state["result"])

    def legal_moves(self, state: State, player: str) -> Iterator[Payload]:
        """Yield ``player``'s legal move payloads now (see :func:`legal_moves`)."""
        return legal_moves(state, player)

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Yield the legal moves (:func:`legal_moves`); none for someone not playing.

        A move the turn would penalise is well formed but not legal, so it is not yielded.
        """
        if player not in state["colors"].values():
            return iter(())
        return legal_moves(state, player)

    def is_legal(self, state: State, player: str, payload: JSON) -> bool:
        """Whether ``payload`` is a move ``check_pick`` accepts and the turn does not penalise.

        A drop named where none is needed is ignored by the rules, so such a move is legal
        too, though :meth:`generate_legal_picks` yields it only without the drop.
        """
        if player not in state["colors"].values() or not super().is_legal(state, player, payload):
            return False
        return is_legal(state, player, payload)

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A simple legal move that tends to end matches.

        Candidates, first non-empty tier wins: captures of pawns; other captures; pawn
        steps; any legal move. Moves that would promote the side's last pawn into a
        knight (losing the match) are left out while another move exists. One time in
        four (``rng.below(4) == 0``, drawn only when the tier is not already "any legal
        move") the bot picks among all legal moves instead, so knights cannot shuffle in a
        loop forever. Then ``rng.choice`` over the candidates. With no legal move at all it
        submits its first piece onto its own square, a well-formed move that is penalised.
        """
        board = parse_board(state["board"])
        color = color_of_player(state, player)
        moves = list(moves_of(board, color))
        if not moves:
            first = next(s for s in SQUARES if s in board and color_of(board[s]) == color)
            return {"from": first, "to": first}
        safe = [m for m in moves if not _promotes_last_pawn(board, color, m)] or moves
        enemy = other(color)
        tiers = [
            [m for m in safe if board.get(m.to_square) == piece_of(enemy, PAWN)],
            [m for m in safe if m.to_square in board],
            [m for m in safe if board[m.from_square] == piece_of(color, PAWN)],
        ]
        candidates = next((tier for tier in tiers if tier), safe)
        if candidates is not safe and rng.below(4) == 0:
            candidates = safe
        return rng.choice(candidates).payload()


def _promotes_last_pawn(board: Mapping[Square, str], color: Color, move: Move) -> bool:
    return (
        board[move.from_square] == piece_of(color, PAWN)
        and rank_of(move.to_square) == last_rank(color)
        and count(board, color, PAWN) == 1
        and count(board, color, KNIGHT) < KNIGHT_LIMIT
    )


RULES = Apocalypse()
