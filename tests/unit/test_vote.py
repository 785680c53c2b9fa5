"""RULINGS.md section 0: the hidden vote."""

from __future__ import annotations

import pytest

from domain.fairrand import Rng
from domain.rules import UnknownGame, get_rules
from domain.rules.base import BadOptions, IllegalPick, play_step

RULES = get_rules("vote")
RNG = Rng(bytes(32), "00000000-0000-4000-8000-000000000000", "step/1")


def play(options: dict, players: list[str], submit: dict) -> dict:
    state = RULES.setup(options, players)
    return RULES.public_view(play_step(RULES, state, RNG, submit=submit).resolution.state)


def test_ruling_candidates_and_voters_default_to_the_players() -> None:
    state = RULES.setup({}, ["ana", "ben"])
    assert state["candidates"] == ["ana", "ben"]
    assert RULES.next_step(state).submitters == ("ana", "ben")


def test_ruling_a_vote_for_a_non_candidate_is_rejected_at_submission() -> None:
    state = RULES.setup({"candidates": ["ana", "ben"]}, ["ana", "ben", "cai"])
    with pytest.raises(IllegalPick, match='"cai" is not a candidate'):
        RULES.check_pick(state, "ana", {"vote": "cai"})


def test_ruling_all_votes_are_revealed_and_tallied_when_the_step_resolves() -> None:
    view = play(
        {},
        ["ana", "ben", "cai"],
        {"ana": {"vote": "ben"}, "ben": {"vote": "ben"}, "cai": {"vote": "ana"}},
    )
    assert view == {"tally": {"ana": 1, "ben": 2, "cai": 0}, "finished": True, "winners": ["ben"]}


def test_ruling_a_tie_lists_every_candidate_with_the_most_votes() -> None:
    view = play({}, ["ana", "ben", "cai"], {"ana": {"vote": "ben"}, "ben": {"vote": "ana"}})
    assert view["winners"] == ["ana", "ben"]


def test_ruling_a_voter_who_submits_nothing_abstains() -> None:
    view = play({}, ["ana", "ben", "cai"], {"ana": {"vote": "cai"}})
    assert view["tally"] == {"ana": 0, "ben": 0, "cai": 1}


def test_ruling_nobody_voting_leaves_every_candidate_tied() -> None:
    assert play({}, ["ana", "ben"], {})["winners"] == ["ana", "ben"]


def test_ruling_voters_must_be_players_and_unknown_options_are_refused() -> None:
    with pytest.raises(BadOptions, match="not a player"):
        RULES.setup({"voters": ["zed"]}, ["ana", "ben"])
    with pytest.raises(BadOptions, match="unknown"):
        RULES.normalise_options({"colour": "red"})


@pytest.mark.parametrize("payload", [None, [], {"vote": "ana", "x": 1}, {"ballot": "ana"}])
def test_a_payload_that_is_not_a_vote_is_rejected(payload: object) -> None:
    with pytest.raises(IllegalPick):
        RULES.check_pick(RULES.setup({}, ["ana", "ben"]), "ana", payload)


def test_an_unknown_game_names_the_games_there_are() -> None:
    with pytest.raises(UnknownGame, match="six-nimmt"):
        get_rules("poker")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"candidates": []}, "candidates lists 1 to 100 names, not 0"),
        ({"candidates": [f"c{i}" for i in range(101)]}, "candidates lists 1 to 100 names, not 101"),
        ({"candidates": "ana"}, 'candidates is a list of 1 to 100 names, not "ana"'),
        ({"candidates": ["x" * 65]}, "candidates holds a text of 65 characters; a name is 1 to 64"),
        ({"candidates": [" ana"]}, "no space at either end"),
        ({"candidates": ["a\u202eb"]}, "printable"),
        ({"candidates": ["\ud800"]}, "printable"),
        ({"candidates": [7]}, "candidates holds 7; a name"),
        ({"candidates": ["Ana", "ana"]}, 'names "ana" twice'),
        ({"voters": ["ana", "ana"]}, 'voters names "ana" twice'),
        ({"voters": [[["ana"]]]}, "voters holds a list"),
        ({"colour": "red", "x" * 500: 1}, 'unknown vote options "colour", a text of 500'),
    ],
)
def test_options_are_bounded_and_refused_in_plain_words(options: dict, message: str) -> None:
    with pytest.raises(BadOptions) as refused:
        RULES.setup(options, ["ana", "ben"])
    assert message in str(refused.value)
    assert "'" not in str(refused.value) and "None" not in str(refused.value)


def test_options_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(BadOptions, match="are a JSON object, not a list"):
        RULES.normalise_options([("candidates", ["ana"])])  # type: ignore[arg-type]


def test_a_vote_takes_at_most_100_players() -> None:
    RULES.setup({}, [f"p{i}" for i in range(100)])
    with pytest.raises(BadOptions, match="1 to 100 players, not 101"):
        RULES.setup({}, [f"p{i}" for i in range(101)])


def test_candidates_may_be_long_unicode_names() -> None:
    names = ["é" * 64, "\U0001f0a1 ace", "josé"]
    state = RULES.setup({"candidates": names}, ["ana", "ben"])
    assert RULES.check_pick(state, "ana", {"vote": "\U0001f0a1 ace"}) == {"vote": "\U0001f0a1 ace"}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"vote": None}, "null is not a candidate; the candidates are ana, ben (to abstain"),
        ({"vote": True}, "true is not a candidate"),
        ({"vote": ["ana"]}, "a list is not a candidate"),
        ({"vote": "z" * 10_000}, "a text of 10000 characters is not a candidate"),
        ({"vote": "ana", "ballot": 1}, 'unknown key "ballot"; a vote is {"vote": candidate}'),
        ({}, 'the key "vote" is missing'),
        ("ana", 'a vote is {"vote": candidate}, not "ana"'),
    ],
)
def test_a_refused_vote_says_why_in_plain_words(payload: object, message: str) -> None:
    with pytest.raises(IllegalPick) as refused:
        RULES.check_pick(RULES.setup({}, ["ana", "ben"]), "ana", payload)
    assert str(refused.value) == message or message in str(refused.value)


# --- The generic interface, as the vote answers it ------------------------------------------


def test_the_legal_votes_are_one_per_candidate_and_abstaining_is_not_one() -> None:
    state = RULES.setup({"candidates": ["ana", "zoë"]}, ["ana", "ben"])
    view = RULES.legal_picks(state, "ben")
    assert list(view) == [{"vote": "ana"}, {"vote": "zoë"}]
    assert len(view) == 2
    assert {"vote": "zoë"} in view
    assert {"vote": "ben"} not in view
    assert RULES.default_pick(state, "ben") not in view
    assert not RULES.default_is_legal


def test_the_suggested_players_are_the_voters_when_the_options_name_them() -> None:
    assert RULES.default_players({"voters": ["dee", "eli"]}) == ["dee", "eli"]
    assert RULES.default_players({}) == ["ana", "ben", "cai"]
    assert RULES.player_range({}) == (1, 100)
    assert RULES.display_name == "Hidden vote"
