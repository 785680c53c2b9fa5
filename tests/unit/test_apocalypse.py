"""Apocalypse rules (RULINGS.md section 2).

One test per ruling, the seed's rules 1-8, the end conditions, property tests over random bot
matches and the recorded scenarios.

Boards are written as board text: ranks 5 down to 1, files a-e, ``N``/``P`` White,
``n``/``p`` Black. ``ana`` is White, ``ben`` Black.

Regenerate the scenario fixtures with ``python -m tests.unit.test_apocalypse``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules.apocalypse import (
    NO_MOVE,
    RULES,
    SQUARES,
    START_BOARD,
    Move,
    is_legal,
    legal_moves,
    parse_board,
)
from domain.rules.base import (
    BadDeal,
    BadOptions,
    IllegalPick,
    Resolution,
    StepSpec,
    play_step,
)

WHITE, BLACK = "ana", "ben"
MATCH_ID = "00000000-0000-4000-8000-000000000000"
RNG_SEED = bytes(32)
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
TURN_CAP = 300  # for the tests only; the game itself has no turn cap


def board(*ranks: str) -> str:
    """Join five rank strings (rank 5 first) into a board text."""
    assert len(ranks) == 5
    return " ".join(ranks)


def position(text: str, penalties: tuple[int, int] = (0, 0), turn: int = 3) -> dict[str, Any]:
    """A mid-match state with the given board text and penalty points."""
    state = RULES.setup({}, [WHITE, BLACK])
    state["board"] = text
    state["penalties"] = {WHITE: penalties[0], BLACK: penalties[1]}
    state["turn"] = turn
    return state


def play(
    state: dict[str, Any],
    white: dict[str, Any] | None = None,
    black: dict[str, Any] | None = None,
) -> Resolution:
    """Play one turn; a side given ``None`` submits nothing (missing move)."""
    submit = {p: m for p, m in ((WHITE, white), (BLACK, black)) if m is not None}
    before = copy.deepcopy(state)
    rng = Rng(RNG_SEED, MATCH_ID, "step/1")
    resolution = play_step(RULES, state, rng, submit=submit).resolution
    assert state == before, "resolve must not mutate its input state"
    return resolution


def mv(start: str, to: str, drop: str | None = None) -> dict[str, str]:
    payload = {"from": start, "to": to}
    if drop is not None:
        payload["drop"] = drop
    return payload


def event_types(resolution: Resolution) -> list[str]:
    return [e["type"] for e in resolution.outcome["events"]]


def events_of(resolution: Resolution, kind: str) -> list[dict[str, Any]]:
    return [e for e in resolution.outcome["events"] if e["type"] == kind]


# --------------------------------------------------------------------------------------
# Set-up, squares and the wire format


def test_ruling_squares_use_chess_names_and_the_start_board_text() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    assert state["board"] == START_BOARD == "npppn p...p ..... P...P NPPPN"
    pieces = parse_board(START_BOARD)
    assert {s for s, p in pieces.items() if p == "N"} == {"a1", "e1"}
    assert {s for s, p in pieces.items() if p == "P"} == {"b1", "c1", "d1", "a2", "e2"}
    assert {s for s, p in pieces.items() if p == "n"} == {"a5", "e5"}
    assert {s for s, p in pieces.items() if p == "p"} == {"b5", "c5", "d5", "a4", "e4"}
    assert SQUARES[0] == "a1" and SQUARES[-1] == "e5" and len(SQUARES) == 25


def test_white_moves_towards_rank_5_and_black_towards_rank_1() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("c1", "c2"), mv("c5", "c4"))
    assert result.state["board"] == "np.pn p.p.p ..... P.P.P NP.PN"
    backwards = play(result.state, mv("c2", "c1"), mv("c4", "c5"))
    assert not backwards.outcome["moves"][WHITE]["legal"]
    assert not backwards.outcome["moves"][BLACK]["legal"]


def test_first_player_is_white_and_the_public_view_has_the_exact_keys() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    view = RULES.public_view(state)
    assert view == {
        "turn": 0,
        "board": START_BOARD,
        "penalties": {WHITE: 0, BLACK: 0},
        "finished": False,
        "result": None,
        "colors": {"white": WHITE, "black": BLACK},
    }
    assert RULES.private_view(state, WHITE) == {}
    assert RULES.next_step(state) == StepSpec(kind="turn", submitters=(WHITE, BLACK))
    assert not RULES.next_step(state).needs_deal
    assert json.loads(json.dumps(state)) == state


def test_the_registry_maps_the_wire_name_to_these_rules() -> None:
    assert get_rules("apocalypse") is RULES
    assert RULES.name == "apocalypse"


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"size": 5}, [WHITE, BLACK]),
        ({}, [WHITE]),
        ({}, [WHITE, BLACK, "cai"]),
        ({}, [WHITE, WHITE]),
        ({}, [WHITE, ""]),
    ],
)
def test_options_are_rejected_and_exactly_two_distinct_players_play(
    options: dict[str, Any], players: list[str]
) -> None:
    with pytest.raises(BadOptions):
        RULES.setup(options, players)


def test_apocalypse_deals_nothing_and_rejects_an_explicit_deal() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    with pytest.raises(BadDeal):
        play_step(RULES, state, Rng(RNG_SEED, MATCH_ID, "step/1"), deal={"board": "x"})


def test_ruling_payload_names_from_and_to_and_a_drop_when_a_pawn_promotes_beside_two_knights() -> (
    None
):
    state = RULES.setup({}, [WHITE, BLACK])
    assert RULES.check_pick(state, WHITE, mv("b1", "b2")) == {"from": "b1", "to": "b2"}
    assert RULES.check_pick(state, WHITE, mv("d4", "d5", "c3")) == {
        "from": "d4",
        "to": "d5",
        "drop": "c3",
    }


@pytest.mark.parametrize(
    "payload",
    [
        "b1b2",
        None,
        ["b1", "b2"],
        {"from": "b1"},
        {"to": "b2"},
        {"from": "b1", "to": "b2", "promote": "N"},
        {"from": "f1", "to": "b2"},
        {"from": "b1", "to": "b6"},
        {"from": "B1", "to": "b2"},
        {"from": 1, "to": "b2"},
        {"from": "b1", "to": "b2", "drop": "z9"},
        {"from": "b1", "to": "b2", "drop": None},
        dict(NO_MOVE),
    ],
)
def test_ruling_a_payload_that_is_not_a_move_is_rejected_at_submission(payload: Any) -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    with pytest.raises(IllegalPick) as info:
        RULES.check_pick(state, WHITE, payload)
    message = str(info.value)
    assert message and message.count(". ") == 0 and "\n" not in message


def test_a_well_formed_illegal_move_is_accepted_at_submission_and_judged_at_resolution() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    assert RULES.check_pick(state, WHITE, mv("b3", "b4")) == mv("b3", "b4")
    result = play(state, mv("b3", "b4"), mv("b5", "b4"))
    assert result.outcome["moves"][WHITE] == {
        "from": "b3",
        "to": "b4",
        "legal": False,
        "reason": "no piece of yours on b3",
    }


def test_a_move_round_trips_through_its_payload_and_its_repr() -> None:
    move = Move.from_payload(mv("d4", "d5", "c3"))
    assert move == Move("d4", "d5", "c3") and move.payload() == mv("d4", "d5", "c3")
    assert eval(repr(move)) == move  # noqa: S307
    assert Move.from_payload(NO_MOVE) is None
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    assert is_legal(state, WHITE, move.payload())
    assert not is_legal(state, WHITE, mv("d4", "d5"))


def test_the_default_pick_is_a_missing_move_marker_that_check_pick_never_returns() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    assert RULES.default_pick(state, WHITE) == {"from": None, "to": None}
    with pytest.raises(IllegalPick):
        RULES.check_pick(state, WHITE, RULES.default_pick(state, WHITE))


# --------------------------------------------------------------------------------------
# Legality against the start-of-turn position


def test_ruling_legality_is_judged_against_the_position_at_the_start_of_the_turn() -> None:
    # White's pawn b2 declares a capture on c3, where Black's knight only arrives this turn.
    state = position(board("....n", "p...p", ".....", ".P..P", "N...N"))
    result = play(state, mv("b2", "c3"), mv("e5", "d3"))
    assert result.outcome["moves"][WHITE]["legal"] is False
    assert result.outcome["moves"][WHITE]["reason"] == (
        "a pawn moves diagonally only to capture; c3 holds no enemy piece"
    )
    assert result.state["board"] == board(".....", "p...p", "...n.", ".P..P", "N...N")
    assert result.state["penalties"] == {WHITE: 1, BLACK: 0}


def test_ruling_a_straight_pawn_step_needs_the_square_empty_at_the_start_of_the_turn() -> None:
    # b3 is vacated this turn by Black's knight, but it was occupied at the start.
    state = position(board("....n", "p...p", ".n...", ".P..P", "N...N"))
    result = play(state, mv("b2", "b3"), mv("b3", "c5"))
    assert result.outcome["moves"][WHITE]["reason"] == (
        "a pawn moves straight only onto an empty square; b3 is occupied"
    )
    assert result.state["board"] == board("..n.n", "p...p", ".....", ".P..P", "N...N")


def test_ruling_a_pawn_diagonal_step_needs_an_enemy_piece_there_at_the_start_of_the_turn() -> None:
    state = position(board("....n", "p...p", "..p..", ".P.P.", "N...N"))
    result = play(state, mv("b2", "c3"), mv("e4", "e3"))
    assert result.outcome["moves"][WHITE]["legal"] is True
    own_piece = position(board("....n", "p...p", "..P..", ".P...", "N...N"))
    own = play(own_piece, mv("b2", "c3"), mv("e4", "e3"))
    assert own.outcome["moves"][WHITE]["reason"] == "c3 holds your own piece"


def test_ruling_no_piece_may_move_onto_its_own_side_s_piece() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("a1", "c2"), mv("a5", "c4"))
    assert result.outcome["moves"][WHITE]["legal"] is True
    knight_onto_own = play(result.state, mv("c2", "e1"), mv("c4", "e5"))
    assert knight_onto_own.outcome["moves"][WHITE]["reason"] == "e1 holds your own piece"
    assert knight_onto_own.outcome["moves"][BLACK]["reason"] == "e5 holds your own piece"


def test_a_knight_jumps_in_its_eight_l_shapes_over_any_piece() -> None:
    state = position(board("n...n", ".ppp.", "..N..", ".PPP.", "....N"))
    knight = sorted(m["to"] for m in legal_moves(state, WHITE) if m["from"] == "c3")
    assert knight == sorted(["a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"])
    not_l = play(state, mv("c3", "c5"), mv("b4", "b3"))
    assert not_l.outcome["moves"][WHITE]["reason"] == (
        "a knight moves two squares one way and one square the other; c3 to c5 is not such a jump"
    )


@pytest.mark.parametrize(("start", "to"), [("c2", "c4"), ("c2", "c1"), ("c2", "b2"), ("c2", "a3")])
def test_a_pawn_never_moves_two_squares_backwards_or_sideways(start: str, to: str) -> None:
    state = position(board("n...n", "p...p", ".....", "..P..", "N...N"))
    result = play(state, mv(start, to), mv("a4", "a3"))
    assert result.outcome["moves"][WHITE]["reason"] == (
        f"a pawn moves one square forward, towards rank 5; {start} to {to} is not such a step"
    )
    black = play(state, mv("c2", "c3"), mv("e4", "d4"))
    assert black.outcome["moves"][BLACK]["reason"] == (
        "a pawn moves one square forward, towards rank 1; e4 to d4 is not such a step"
    )


def test_moving_a_piece_onto_its_own_square_is_illegal_because_passing_is_not_allowed() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("a1", "a1"), mv("b5", "b4"))
    assert result.outcome["moves"][WHITE]["reason"] == (
        "a move must leave its square; a1 to a1 is no move"
    )
    assert result.state["penalties"][WHITE] == 1


def test_no_piece_of_yours_names_the_square_for_an_empty_or_enemy_square() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("b5", "b4"), mv("c3", "c2"))
    assert result.outcome["moves"][WHITE]["reason"] == "no piece of yours on b5"
    assert result.outcome["moves"][BLACK]["reason"] == "no piece of yours on c3"


def test_legal_moves_is_lazy_and_lists_every_start_move() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    moves = legal_moves(state, WHITE)
    assert iter(moves) is moves  # a generator, not a list
    white = list(moves)
    assert len(white) == 9
    assert {"from": "b1", "to": "b2"} in white and {"from": "e1", "to": "c2"} in white
    assert all(RULES.check_pick(state, WHITE, m) == m for m in white)
    assert len(list(RULES.legal_moves(state, BLACK))) == 9


def test_legal_moves_list_each_allowed_drop_square_for_a_promotion_beside_two_knights() -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    promotions = [m for m in legal_moves(state, WHITE) if m["from"] == "d4" and m["to"] == "d5"]
    drops = {m["drop"] for m in promotions}
    assert all("drop" in m for m in legal_moves(state, WHITE) if m["from"] == "d4")
    # Empty at the start of the turn and off rank 5; d4 itself is occupied by the pawn.
    empty = {s for s in SQUARES if s not in parse_board(state["board"]) and s[1] != "5"}
    assert drops == empty and "d4" not in drops


# --------------------------------------------------------------------------------------
# Resolution: rules 1-5 of the seed


def test_rule_1_moves_without_conflict_are_both_executed() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("a1", "b3"), mv("e5", "d3"))
    assert result.outcome["board_before"] == START_BOARD
    assert result.state["board"] == result.outcome["board_after"] == "nppp. p...p .N.n. P...P .PPPN"
    assert event_types(result) == ["move", "move"]


def test_rule_2_two_knights_landing_on_one_square_are_both_removed() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("a1", "b3"), mv("a5", "b3"))
    assert result.outcome["board_before"] == "npppn p...p ..... P...P NPPPN"
    assert result.state["board"] == ".pppn p...p ..... P...P .PPPN"
    assert events_of(result, "collision") == [
        {
            "type": "collision",
            "square": "b3",
            "pieces": {WHITE: "N", BLACK: "n"},
            "from": {WHITE: "a1", BLACK: "a5"},
            "removed": [WHITE, BLACK],
            "survivor": None,
        }
    ]


def test_rule_2_two_pawns_landing_on_one_square_are_both_removed() -> None:
    state = position(board("n...n", "p.p.p", ".....", "P.P.P", "N...N"))
    result = play(state, mv("c2", "c3"), mv("c4", "c3"))
    assert result.state["board"] == board("n...n", "p...p", ".....", "P...P", "N...N")
    (collision,) = events_of(result, "collision")
    assert collision["removed"] == [WHITE, BLACK] and collision["survivor"] is None


@pytest.mark.parametrize(
    ("before", "white", "black", "after", "survivor"),
    [
        # Black's knight b5 and White's pawn c2 both go to c3: the knight captures the pawn.
        (
            board(".n..n", "p...p", ".....", "P.P.P", "N...N"),
            mv("c2", "c3"),
            mv("b5", "c3"),
            board("....n", "p...p", "..n..", "P...P", "N...N"),
            BLACK,
        ),
        # White's knight b1 and Black's pawn c4 both go to c3: the knight captures the pawn.
        (
            board("n...n", "p.p.p", ".....", "P...P", ".N..N"),
            mv("b1", "c3"),
            mv("c4", "c3"),
            board("n...n", "p...p", "..N..", "P...P", "....N"),
            WHITE,
        ),
    ],
)
def test_rule_2_a_knight_and_a_pawn_landing_on_one_square_the_knight_captures_the_pawn(
    before: str, white: dict[str, str], black: dict[str, str], after: str, survivor: str
) -> None:
    result = play(position(before), white, black)
    assert result.state["board"] == after
    (collision,) = events_of(result, "collision")
    assert collision["survivor"] == survivor
    assert collision["removed"] == [WHITE if survivor == BLACK else BLACK]


def test_rule_3_a_move_onto_a_piece_that_moved_away_executes_without_capture() -> None:
    # White's knight a1 attacks Black's pawn b3, which steps to b2 the same turn.
    state = position(board("n...n", "p...p", ".p...", "P...P", "N...N"))
    result = play(state, mv("a1", "b3"), mv("b3", "b2"))
    assert result.state["board"] == board("n...n", "p...p", ".N...", "Pp..P", "....N")
    assert events_of(result, "capture") == []
    (white_move,) = [e for e in events_of(result, "move") if e["player"] == WHITE]
    assert white_move["target_moved"] is True


def test_rule_3_a_move_onto_a_piece_that_did_not_move_captures_it() -> None:
    state = position(board("n...n", "p...p", ".p...", "P...P", "N...N"))
    result = play(state, mv("a1", "b3"), mv("a4", "a3"))
    assert result.state["board"] == board("n...n", "....p", "pN...", "P...P", "....N")
    assert events_of(result, "capture") == [
        {
            "type": "capture",
            "player": WHITE,
            "piece": "N",
            "square": "b3",
            "captured": "p",
            "captured_player": BLACK,
        }
    ]


def test_rule_3_a_piece_is_captured_when_its_own_move_was_illegal() -> None:
    state = position(board("n...n", "p...p", ".p...", "P...P", "N...N"))
    result = play(state, mv("a1", "b3"), mv("b3", "b1"))
    assert result.outcome["moves"][BLACK]["legal"] is False
    assert result.state["board"] == board("n...n", "p...p", ".N...", "P...P", "....N")
    assert event_types(result) == ["penalty", "move", "capture"]


def test_rule_4_a_pawn_capture_whose_target_left_still_moves_diagonally() -> None:
    state = position(board("n....", "p...p", "..n..", ".P..P", "N...N"))
    result = play(state, mv("b2", "c3"), mv("c3", "d5"))
    assert result.state["board"] == board("n..n.", "p...p", "..P..", "....P", "N...N")
    assert events_of(result, "capture") == []
    assert {
        "type": "move",
        "player": WHITE,
        "piece": "P",
        "from": "b2",
        "to": "c3",
        "target_moved": True,
    } in result.outcome["events"]


def test_rule_5_two_knights_ordered_to_capture_one_another_exchange_places() -> None:
    state = position(board("....n", "p...p", ".n...", "P...P", "N...N"))
    result = play(state, mv("a1", "b3"), mv("b3", "a1"))
    assert result.state["board"] == board("....n", "p...p", ".N...", "P...P", "n...N")
    assert events_of(result, "swap") == [
        {"type": "swap", "squares": ["a1", "b3"], "pieces": {WHITE: "N", BLACK: "n"}}
    ]
    assert events_of(result, "capture") == []


def test_rule_5_two_pawns_ordered_to_capture_one_another_exchange_places() -> None:
    state = position(board("n...n", "p...p", "..p..", ".P..P", "N...N"))
    result = play(state, mv("b2", "c3"), mv("c3", "b2"))
    assert result.state["board"] == board("n...n", "p...p", "..P..", ".p..P", "N...N")
    assert event_types(result) == ["swap"]


def test_rule_5_a_pawn_swap_onto_the_last_rank_then_promotes() -> None:
    state = position(board("n...p", "p..P.", ".....", "....P", "....N"))
    result = play(state, mv("d4", "e5"), mv("e5", "d4"))
    assert result.state["board"] == board("n...N", "p..p.", ".....", "....P", "....N")
    assert event_types(result) == ["swap", "promotion"]


def test_a_piece_moving_onto_the_square_the_other_just_left_is_not_a_capture() -> None:
    # Black's knight c2 lands on a1, which White's knight leaves to capture a pawn on b3.
    state = position(board("n...n", "p...p", ".p...", "P.n.P", "N...."))
    result = play(state, mv("a1", "b3"), mv("c2", "a1"))
    assert result.state["board"] == board("n...n", "p...p", ".N...", "P...P", "n....")
    moves = {e["player"]: e for e in events_of(result, "move")}
    assert moves[WHITE]["target_moved"] is False and moves[BLACK]["target_moved"] is True
    assert [e["captured"] for e in events_of(result, "capture")] == ["p"]


@pytest.mark.parametrize(
    ("before", "white", "black", "after", "events"),
    [
        # Same destination, same kind: both removed.
        (
            START_BOARD,
            mv("a1", "b3"),
            mv("a5", "b3"),
            ".pppn p...p ..... P...P .PPPN",
            ["collision"],
        ),
        # Same destination, knight and pawn: the knight beats the pawn.
        (
            board(".n..n", "p...p", ".....", "P.P.P", "N...N"),
            mv("c2", "c3"),
            mv("b5", "c3"),
            board("....n", "p...p", "..n..", "P...P", "N...N"),
            ["collision"],
        ),
        # A piece that moved away is never captured.
        (
            board("n...n", "p...p", ".p...", "P...P", "N...N"),
            mv("a1", "b3"),
            mv("b3", "b2"),
            board("n...n", "p...p", ".N...", "Pp..P", "....N"),
            ["move", "move"],
        ),
        # Mutual captures swap places.
        (
            board("....n", "p...p", ".n...", "P...P", "N...N"),
            mv("a1", "b3"),
            mv("b3", "a1"),
            board("....n", "p...p", ".N...", "P...P", "n...N"),
            ["swap"],
        ),
        # A pawn's declared capture whose target left still moves.
        (
            board("n...n", "p...p", "..p..", ".P..P", "N...N"),
            mv("b2", "c3"),
            mv("c3", "c2"),
            board("n...n", "p...p", "..P..", "..p.P", "N...N"),
            ["move", "move"],
        ),
    ],
)
def test_ruling_resolution_follows_rules_1_to_5_on_destination_squares(
    before: str, white: dict[str, str], black: dict[str, str], after: str, events: list[str]
) -> None:
    result = play(position(before), white, black)
    assert result.state["board"] == after
    assert event_types(result) == events


# --------------------------------------------------------------------------------------
# Rule 6: promotion after resolution


def test_ruling_promotion_with_fewer_than_two_knights_makes_a_knight() -> None:
    state = position(board("n....", "p..P.", ".....", "....P", "....N"))
    result = play(state, mv("d4", "d5"), mv("a4", "a3"))
    assert result.state["board"] == board("n..N.", ".....", "p....", "....P", "....N")
    assert events_of(result, "promotion") == [
        {"type": "promotion", "player": WHITE, "square": "d5", "piece": "N"}
    ]


def test_ruling_promotion_with_two_knights_drops_the_pawn_on_its_empty_drop_square() -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    result = play(state, mv("d4", "d5", "c3"), mv("a4", "a3"))
    assert result.state["board"] == board("n...n", ".....", "p.P..", "....P", "N...N")
    assert events_of(result, "drop") == [
        {"type": "drop", "player": WHITE, "from": "d5", "to": "c3"}
    ]


def test_ruling_promotion_removes_the_pawn_when_its_drop_square_is_taken_after_the_moves() -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    result = play(state, mv("d4", "d5", "b3"), mv("a5", "b3"))
    assert result.state["board"] == board("....n", "p....", ".n...", "....P", "N...N")
    assert events_of(result, "removed") == [
        {
            "type": "removed",
            "player": WHITE,
            "square": "d5",
            "piece": "P",
            "reason": "the drop square b3 was taken during the moves",
        }
    ]


def test_ruling_a_pawn_needing_a_drop_but_naming_none_is_illegal_and_penalised() -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    result = play(state, mv("d4", "d5"), mv("a4", "a3"))
    assert result.outcome["moves"][WHITE]["legal"] is False
    assert result.outcome["moves"][WHITE]["reason"].startswith("promotion needs a drop square")
    assert result.state["board"] == board("n...n", "...P.", "p....", "....P", "N...N")
    assert result.state["penalties"] == {WHITE: 1, BLACK: 0}


@pytest.mark.parametrize(
    ("drop", "reason"),
    [
        ("b5", "the drop square b5 is on the pawn's last rank 5"),
        ("e2", "the drop square e2 is not empty"),
        ("d4", "the drop square d4 is not empty"),  # the pawn's own square at the start
    ],
)
def test_a_drop_square_must_be_empty_at_the_start_and_off_the_last_rank(
    drop: str, reason: str
) -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    result = play(state, mv("d4", "d5", drop), mv("a4", "a3"))
    assert result.outcome["moves"][WHITE]["reason"] == reason


def test_a_drop_on_the_owner_s_first_rank_is_allowed() -> None:
    state = position(board("n...n", "p..P.", ".....", "....P", "N...N"))
    result = play(state, mv("d4", "d5", "c1"), mv("a4", "a3"))
    assert result.state["board"] == board("n...n", ".....", "p....", "....P", "N.P.N")


def test_a_drop_given_when_none_is_needed_is_ignored() -> None:
    # One knight: the pawn becomes a knight; the (occupied, even) drop square is unused.
    state = position(board("n....", "p..P.", ".....", "....P", "....N"))
    result = play(state, mv("d4", "d5", "e2"), mv("a4", "a3"))
    assert result.outcome["moves"][WHITE] == {
        "from": "d4",
        "to": "d5",
        "drop": "e2",
        "legal": True,
        "reason": None,
    }
    assert result.state["board"] == board("n..N.", ".....", "p....", "....P", "....N")
    # Not a promotion at all: the drop is ignored too.
    plain = play(RULES.setup({}, [WHITE, BLACK]), mv("b1", "b2", "c5"), mv("b5", "b4"))
    assert plain.outcome["moves"][WHITE]["legal"] is True
    assert plain.state["board"] == "n.ppn pp..p ..... PP..P N.PPN"


def test_two_knights_at_the_start_but_one_lost_in_the_moves_the_pawn_becomes_a_knight() -> None:
    # Black's knight b3 captures White's knight a1 (which did not move) while White's pawn
    # promotes: White has one knight after the moves, so the pawn becomes a knight.
    state = position(board("n....", "p..P.", ".n...", "....P", "N...N"))
    result = play(state, mv("d4", "d5", "c3"), mv("b3", "a1"))
    assert result.state["board"] == board("n..N.", "p....", ".....", "....P", "n...N")
    assert events_of(result, "drop") == []
    assert len(events_of(result, "promotion")) == 1


def test_two_pawns_dropping_on_the_same_square_are_both_removed() -> None:
    state = position(board("n...n", "p..P.", ".....", ".p..P", "N...N"))
    result = play(state, mv("d4", "d5", "c3"), mv("b2", "b1", "c3"))
    assert result.state["board"] == board("n...n", "p....", ".....", "....P", "N...N")
    removed = events_of(result, "removed")
    assert [e["player"] for e in removed] == [WHITE, BLACK]
    assert all(e["reason"] == "both pawns were dropped on c3" for e in removed)


def test_a_drop_onto_the_square_where_the_enemy_pawn_promotes_removes_the_dropping_pawn() -> None:
    # White (one knight) promotes on d5; Black (two knights) named d5, empty at the start,
    # as its drop square: d5 is not empty after the moves, so Black's pawn is removed.
    state = position(board("n...n", "p..P.", ".....", ".p..P", "....N"))
    result = play(state, mv("d4", "d5"), mv("b2", "b1", "d5"))
    assert result.state["board"] == board("n..Nn", "p....", ".....", "....P", "....N")
    assert event_types(result) == ["move", "move", "promotion", "removed"]


def test_promoting_the_last_pawn_into_a_knight_loses_for_want_of_pawns() -> None:
    state = position(board("n....", "p..P.", ".....", ".....", "....N"))
    result = play(state, mv("d4", "d5"), mv("a5", "b3"))
    assert result.state["board"] == board("...N.", "p....", ".n...", ".....", "....N")
    assert result.state["result"] == {"outcome": "black", "winner": BLACK, "reason": "no-pawns"}


# --------------------------------------------------------------------------------------
# Rules 7 and 8: penalties


def test_ruling_an_illegal_move_earns_a_penalty_point_and_the_other_move_still_executes() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("b1", "c2"), mv("a5", "b3"))
    assert result.outcome["board_before"] == START_BOARD
    assert result.state["board"] == ".pppn p...p .n... P...P NPPPN"
    assert result.state["penalties"] == {WHITE: 1, BLACK: 0}
    assert result.outcome["events"][0] == {
        "type": "penalty",
        "player": WHITE,
        "reason": "a pawn moves diagonally only to capture; c2 holds no enemy piece",
        "penalties": 1,
    }


def test_ruling_a_missing_move_earns_a_penalty_point_and_the_other_move_still_executes() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, None, mv("a5", "b3"))
    assert result.outcome["moves"][WHITE] == {
        "from": None,
        "to": None,
        "legal": False,
        "reason": "no move was submitted",
    }
    assert result.state["board"] == ".pppn p...p .n... P...P NPPPN"
    assert result.state["penalties"] == {WHITE: 1, BLACK: 0}
    assert result.state["turn"] == 1 and not result.state["finished"]


def test_ruling_two_penalty_points_forfeit_the_match() -> None:
    state = position(START_BOARD, penalties=(0, 1))
    result = play(state, mv("b1", "b2"), mv("b5", "b3"))
    assert result.outcome["board_before"] == START_BOARD
    assert result.state["board"] == "npppn p...p ..... PP..P N.PPN"
    assert result.state["finished"] is True
    assert result.state["result"] == {"outcome": "white", "winner": WHITE, "reason": "forfeit"}
    assert result.outcome["result"] == result.state["result"]
    assert RULES.next_step(result.state) is None
    assert RULES.result(result.state) == result.state["result"]
    assert RULES.public_view(result.state)["penalties"] == {WHITE: 0, BLACK: 2}


def test_ruling_both_reaching_two_penalty_points_on_the_same_turn_is_a_draw() -> None:
    state = position(START_BOARD, penalties=(1, 1))
    result = play(state, None, mv("b5", "b3"))
    assert result.outcome["board_before"] == result.state["board"] == START_BOARD
    assert result.state["result"] == {"outcome": "draw", "winner": None, "reason": "forfeit"}


def test_the_match_refuses_a_further_step_once_finished() -> None:
    state = position(START_BOARD, penalties=(1, 1))
    finished = play(state).state
    with pytest.raises(ValueError, match="already finished"):
        play_step(RULES, finished, Rng(RNG_SEED, MATCH_ID, "step/2"))


# --------------------------------------------------------------------------------------
# End of the game


def test_ruling_a_side_with_no_pawns_loses() -> None:
    state = position(board("n...n", ".....", ".p...", "P...P", "N...N"))
    result = play(state, mv("a1", "b3"), mv("a5", "c4"))
    assert result.state["board"] == board("....n", "..n..", ".N...", "P...P", "....N")
    assert result.state["result"] == {"outcome": "white", "winner": WHITE, "reason": "no-pawns"}


def test_ruling_both_losing_their_last_pawn_at_once_is_a_draw() -> None:
    state = position(board("n...n", "..p..", ".....", "..P..", "N...N"))
    result = play(state, mv("c2", "c3"), mv("c4", "c3"))
    assert result.state["board"] == board("n...n", ".....", ".....", ".....", "N...N")
    assert result.state["result"] == {"outcome": "draw", "winner": None, "reason": "no-pawns"}


def test_ruling_neither_side_with_a_legal_move_is_a_draw() -> None:
    # The knights collide on b3; the facing pawns c3/c2 are left with no move at all.
    state = position(board("n....", ".....", "..p..", "..P..", "N...."))
    result = play(state, mv("a1", "b3"), mv("a5", "b3"))
    assert result.state["board"] == board(".....", ".....", "..p..", "..P..", ".....")
    assert list(legal_moves(result.state, WHITE)) == []
    assert list(legal_moves(result.state, BLACK)) == []
    assert result.state["result"] == {"outcome": "draw", "winner": None, "reason": "no-legal-moves"}


def test_ruling_a_side_with_no_legal_move_keeps_submitting_and_is_penalised() -> None:
    # White's only pawn c2 is blocked and White has no knight; Black can still move.
    state = position(board("n....", "p....", "..p..", "..P..", "....."))
    assert list(legal_moves(state, WHITE)) == []
    assert RULES.next_step(state) == StepSpec(kind="turn", submitters=(WHITE, BLACK))
    bot = RULES.bot_pick(state, WHITE, Rng(RNG_SEED, MATCH_ID, "bot"))
    assert RULES.check_pick(state, WHITE, bot) == bot
    first = play(state, bot, mv("a4", "a3"))
    assert first.state["penalties"] == {WHITE: 1, BLACK: 0} and not first.state["finished"]
    assert list(legal_moves(first.state, WHITE)) == []
    again = RULES.bot_pick(first.state, WHITE, Rng(RNG_SEED, MATCH_ID, "bot"))
    second = play(first.state, again, mv("a3", "a2"))
    assert second.state["result"] == {"outcome": "black", "winner": BLACK, "reason": "forfeit"}


def test_end_check_order_a_side_that_forfeits_with_no_pawns_loses_by_forfeit() -> None:
    state = position(board("n...n", "p....", ".p...", "..P..", "N...N"), penalties=(1, 0))
    result = play(state, mv("a1", "a2"), mv("b3", "c2"))
    assert result.state["board"] == board("n...n", "p....", ".....", "..p..", "N...N")
    assert result.state["result"] == {"outcome": "black", "winner": BLACK, "reason": "forfeit"}


def test_end_check_order_one_side_forfeiting_while_the_other_runs_out_of_pawns_is_a_draw() -> None:
    # White's second penalty point and Black promoting its last pawn on the same turn:
    # both sides lose at once, so the match is drawn.
    state = position(board("n....", ".....", ".....", ".p..P", "N...N"), penalties=(1, 0))
    result = play(state, mv("e2", "d3"), mv("b2", "b1"))
    assert result.state["board"] == board("n....", ".....", ".....", "....P", "Nn..N")
    assert result.state["result"] == {
        "outcome": "draw",
        "winner": None,
        "reason": "forfeit-and-no-pawns",
    }


def test_end_check_order_a_loss_is_checked_before_the_no_legal_move_draw() -> None:
    # After the turn neither side can move, but White has just reached two penalty points.
    state = position(board(".....", ".....", "..p..", "..P..", "....."), penalties=(1, 0))
    result = play(state, None, None)
    assert list(legal_moves(result.state, WHITE)) == list(legal_moves(result.state, BLACK)) == []
    assert result.state["result"] == {"outcome": "black", "winner": BLACK, "reason": "forfeit"}


def test_the_outcome_of_a_turn_is_machine_readable() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    result = play(state, mv("b1", "b2"), {"from": "b5", "to": "b4", "drop": "c3"})
    assert set(result.outcome) == {"moves", "events", "board_before", "board_after", "result"}
    assert result.outcome["moves"] == {
        WHITE: {"from": "b1", "to": "b2", "legal": True, "reason": None},
        BLACK: {"from": "b5", "to": "b4", "drop": "c3", "legal": True, "reason": None},
    }
    assert result.outcome["events"] == [
        {
            "type": "move",
            "player": WHITE,
            "piece": "P",
            "from": "b1",
            "to": "b2",
            "target_moved": False,
        },
        {
            "type": "move",
            "player": BLACK,
            "piece": "p",
            "from": "b5",
            "to": "b4",
            "target_moved": False,
        },
    ]
    assert result.outcome["result"] is None
    assert json.loads(json.dumps(result.outcome)) == result.outcome


def test_the_bot_picks_a_legal_move_and_prefers_captures() -> None:
    state = position(board("n...n", "p...p", ".p...", "P...P", "N...N"))
    for n in range(20):
        pick = RULES.bot_pick(state, WHITE, Rng(RNG_SEED, MATCH_ID, f"bot/{n}"))
        assert pick in list(legal_moves(state, WHITE))
    picks = [RULES.bot_pick(state, WHITE, Rng(RNG_SEED, MATCH_ID, f"b/{n}")) for n in range(40)]
    assert mv("a1", "b3") in picks


# --------------------------------------------------------------------------------------
# Property tests over random bot matches


def _pieces(text: str) -> dict[str, int]:
    pieces = parse_board(text).values()
    return {letter: sum(1 for p in pieces if p == letter) for letter in "NPnp"}


def _noisy_pick(state: dict[str, Any], player: str, rng: Rng, noise: int) -> dict[str, Any] | None:
    """A bot move, or with probability noise/8 a random well-formed move or nothing."""
    if rng.below(8) < noise:
        kind = rng.below(3)
        if kind == 0:
            return None
        payload = {"from": rng.choice(SQUARES), "to": rng.choice(SQUARES)}
        if kind == 2:
            payload["drop"] = rng.choice(SQUARES)
        return payload
    return RULES.bot_pick(state, player, rng)


def _play_match(
    seed: bytes, noise: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Resolution]]:
    state = RULES.setup({}, [WHITE, BLACK])
    states, submits, resolutions = [state], [], []
    for n in range(1, TURN_CAP + 1):
        if RULES.next_step(state) is None:
            break
        rng = Rng(seed, MATCH_ID, f"step/{n}")
        submit = {}
        for player in (WHITE, BLACK):
            pick = _noisy_pick(state, player, rng, noise)
            if pick is not None:
                submit[player] = pick
        play_ = play_step(RULES, state, rng, submit=submit)
        state = play_.resolution.state
        states.append(state)
        submits.append(submit)
        resolutions.append(play_.resolution)
    return states, submits, resolutions


@settings(max_examples=100, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), noise=st.integers(0, 2))
def test_property_random_matches_finish_and_pieces_never_grow_except_by_promotion(
    seed: bytes, noise: int
) -> None:
    states, _, resolutions = _play_match(seed, noise)
    final = states[-1]
    # Check the match finished (the cap is a test guard only: the game has none).
    assert final["finished"] and RULES.next_step(final) is None
    assert final["result"]["outcome"] in {"white", "black", "draw"}
    penalties = {WHITE: 0, BLACK: 0}
    for before, after, resolution in zip(states[:-1], states[1:], resolutions, strict=True):
        old, new = _pieces(before["board"]), _pieces(after["board"])
        for knight, pawn, player in (("N", "P", WHITE), ("n", "p", BLACK)):
            promotions = sum(
                1
                for e in resolution.outcome["events"]
                if e["type"] == "promotion" and e["player"] == player
            )
            # Check pawns never grow; knights grow only by promotion, each costing a pawn.
            assert new[pawn] <= old[pawn] - promotions
            assert new[knight] <= old[knight] + promotions and new[knight] <= 2
            assert new[knight] + new[pawn] <= old[knight] + old[pawn]
        board_after = parse_board(after["board"])
        assert not any(
            (p == "P" and s[1] == "5") or (p == "p" and s[1] == "1") for s, p in board_after.items()
        )
        assert resolution.outcome["board_before"] == before["board"]
        assert resolution.outcome["board_after"] == after["board"]
        for e in resolution.outcome["events"]:
            if e["type"] == "penalty":
                penalties[e["player"]] += 1
        assert after["penalties"] == penalties
        assert after["turn"] == before["turn"] + 1
        assert json.loads(json.dumps(after)) == after


@settings(max_examples=50, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), noise=st.integers(0, 2))
def test_property_replaying_the_same_inputs_gives_the_same_states(seed: bytes, noise: int) -> None:
    states, submits, resolutions = _play_match(seed, noise)
    state = RULES.setup({}, [WHITE, BLACK])
    for n, (submit, expected, resolution) in enumerate(
        zip(submits, states[1:], resolutions, strict=True), start=1
    ):
        replay = play_step(RULES, state, Rng(bytes(32), MATCH_ID, f"other/{n}"), submit=submit)
        assert replay.resolution.outcome == resolution.outcome
        state = replay.resolution.state
        assert state == expected


# --------------------------------------------------------------------------------------
# Scenario fixtures


def _scenario_files() -> list[Path]:
    return sorted(FIXTURES.glob("apocalypse-*.json"))


def replay_scenario(scenario: dict[str, Any]) -> list[str]:
    """Play a scenario with ``play_step``; return its expected-jsonl lines."""
    rules = get_rules(scenario["game"])
    state = rules.setup(scenario["options"], scenario["players"])
    seed = bytes.fromhex(scenario["seed"])
    lines = []
    for n, step in enumerate(scenario["steps"], start=1):
        played = play_step(
            rules,
            state,
            Rng(seed, MATCH_ID, f"step/{n}"),
            deal=step.get("deal"),
            submit=step.get("submit"),
            decide=step.get("decide"),
        )
        state = played.resolution.state
        lines.append(_line({"step": n, "state": rules.public_view(state)}))
    return lines


def _line(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def test_the_scenario_fixtures_exist_and_one_is_a_complete_bot_match() -> None:
    names = {p.name for p in _scenario_files()}
    assert "apocalypse-bot-match.json" in names
    lines = (FIXTURES / "apocalypse-bot-match.expected.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["state"]["finished"] is True


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.stem)
def test_scenario_replays_to_its_expected_public_states(path: Path) -> None:
    scenario = json.loads(path.read_text())
    assert len(scenario["seed"]) == 64 and int(scenario["seed"], 16) >= 0
    expected = path.with_suffix(".expected.jsonl").read_text().splitlines()
    assert replay_scenario(scenario) == expected


_SMALL_SCENARIOS: dict[str, list[dict[str, Any]]] = {
    # Rule 2, knight/knight: both knights land on b3 and are removed.
    "knight-collision": [{WHITE: mv("a1", "b3"), BLACK: mv("a5", "b3")}],
    # Rule 2, pawn/pawn: both c-pawns land on c3 on turn 2 and are removed.
    "pawn-collision": [
        {WHITE: mv("c1", "c2"), BLACK: mv("c5", "c4")},
        {WHITE: mv("c2", "c3"), BLACK: mv("c4", "c3")},
    ],
    # Rule 2, knight/pawn: Black's knight a5 and White's pawn both land on b3.
    "knight-beats-pawn": [
        {WHITE: mv("b1", "b2"), BLACK: mv("a4", "a3")},
        {WHITE: mv("b2", "b3"), BLACK: mv("a5", "b3")},
    ],
    # Rule 5: the knights a1 and b3 capture one another and exchange squares.
    "swap": [
        {WHITE: mv("e2", "e3"), BLACK: mv("a5", "b3")},
        {WHITE: mv("a1", "b3"), BLACK: mv("b3", "a1")},
    ],
    # Rules 3 and 4: pawn b2 declares a capture on a3, whose knight leaves for b1.
    "target-moved": [
        {WHITE: mv("b1", "b2"), BLACK: mv("a5", "c4")},
        {WHITE: mv("e2", "e3"), BLACK: mv("c4", "a3")},
        {WHITE: mv("b2", "a3"), BLACK: mv("a3", "b1")},
    ],
    # Rules 7 and 8: Black submits nothing twice and forfeits.
    "missing-forfeit": [{WHITE: mv("b1", "b2")}, {WHITE: mv("b2", "b3")}],
}
_FIXTURE_SEED = hashlib.sha256(b"apocalypse fixture 5").hexdigest()


def _bot_match_steps(seed: bytes) -> list[dict[str, Any]]:
    state = RULES.setup({}, [WHITE, BLACK])
    steps = []
    n = 0
    while RULES.next_step(state) is not None:
        n += 1
        rng = Rng(seed, MATCH_ID, f"step/{n}")
        submit = {p: RULES.bot_pick(state, p, rng) for p in (WHITE, BLACK)}
        steps.append(submit)
        state = play_step(RULES, state, rng, submit=submit).resolution.state
    return steps


def _scenario_text(scenario: dict[str, Any]) -> str:
    """The scenario as JSON, one step per line."""
    head = {k: v for k, v in scenario.items() if k != "steps"}
    steps = ",\n  ".join(json.dumps(step) for step in scenario["steps"])
    return f'{json.dumps(head)[:-1]},\n "steps": [\n  {steps}\n ]}}\n'


def _generate_fixture() -> None:
    """Write every apocalypse scenario and its expected public states."""
    matches = {"bot-match": _bot_match_steps(bytes.fromhex(_FIXTURE_SEED)), **_SMALL_SCENARIOS}
    for name, submits in matches.items():
        scenario = {
            "game": "apocalypse",
            "options": {},
            "players": [WHITE, BLACK],
            "seed": _FIXTURE_SEED,
            "steps": [{"submit": submit} for submit in submits],
        }
        path = FIXTURES / f"apocalypse-{name}.json"
        path.write_text(_scenario_text(scenario))
        lines = replay_scenario(scenario)
        path.with_suffix(".expected.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    _generate_fixture()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (
            {"from": "b1", "to": "b2" * 5000},
            (
                '"to" must be a square name a1 to e5 (files a-e, ranks 1-5), '
                "not a text of 10000 characters"
            ),
        ),
        ({"from": 11, "to": "b2"}, "not 11"),
        ({"from": True, "to": "b2"}, "not true"),
        ({"from": "b1", "to": "b2", "drop": None}, "not null"),
        ({"from": "b1", "to": [[["b2"]]]}, "not a list"),
        ({"from": "b1", "to": "B2"}, 'not "B2"'),
        (
            {"from": "b1", "to": "b2", "x" * 70: 1, "y": 2},
            'unknown keys a text of 70 characters, "y"; a move is',
        ),
        ("b1-b2", 'with an optional "drop": square, not "b1-b2"'),
    ],
)
def test_a_payload_that_is_no_move_is_refused_in_plain_words(payload: object, message: str) -> None:
    with pytest.raises(IllegalPick) as refused:
        RULES.check_pick(RULES.setup({}, ["ana", "ben"]), "ana", payload)
    assert message in str(refused.value)
    assert "'" not in str(refused.value) and "None" not in str(refused.value)


def test_options_are_refused_whatever_their_size() -> None:
    with pytest.raises(BadOptions) as refused:
        RULES.setup({f"o{i}": i for i in range(1000)}, ["ana", "ben"])
    assert str(refused.value) == (
        'unknown apocalypse options "o0", "o1", "o10" and 997 more; apocalypse takes no options'
    )
    with pytest.raises(BadOptions, match="are a JSON object, not a list"):
        RULES.normalise_options([])  # type: ignore[arg-type]


# --- The generic interface, as Apocalypse answers it ----------------------------------------


def test_the_legal_picks_are_the_legal_moves_and_a_penalised_move_is_not_legal() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    view = RULES.legal_picks(state, BLACK)
    assert list(view) == list(legal_moves(state, BLACK))
    assert len(view) == 9
    # Check a well-formed move the turn would penalise: accepted at submission, not legal.
    assert RULES.check_pick(state, WHITE, mv("b3", "b4")) == mv("b3", "b4")
    assert mv("b3", "b4") not in RULES.legal_picks(state, WHITE)
    assert mv("b1", "b2") in RULES.legal_picks(state, WHITE)
    # Check the default is the missing-move marker, never legal.
    assert not RULES.is_legal(state, WHITE, NO_MOVE)
    assert not RULES.default_is_legal


def test_a_drop_named_where_none_is_needed_is_legal_but_listed_without_it() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    assert RULES.is_legal(state, WHITE, mv("b1", "b2", drop="c3"))
    assert mv("b1", "b2", drop="c3") not in list(RULES.legal_picks(state, WHITE))


def test_someone_not_playing_has_no_legal_pick() -> None:
    state = RULES.setup({}, [WHITE, BLACK])
    assert not RULES.legal_picks(state, "cai").any()
    assert not RULES.is_legal(state, "cai", mv("b1", "b2"))
    assert RULES.player_range({}) == (2, 2)
    assert RULES.default_players({}) == ["ana", "ben"]
    assert [f.name for f in RULES.pick_fields("turn")] == ["from", "to", "drop"]
