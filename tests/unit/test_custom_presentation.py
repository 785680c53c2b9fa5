"""A custom game's presentation: its words and picture follow the match's own design.

Real records throughout: custom matches played through the ``Match`` aggregate
(``play_scenario``), told by the same functions the pages call (``web.pictures``), with the
presentation of each match built from its options (``web.games.for_match``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.public_log import PublicLog
from replay.bundle import play_scenario
from web.games import for_match, presentation
from web.pictures import account, chart, picture

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
THREE = ["ana", "ben", "cai"]
SVG = "{http://www.w3.org/2000/svg}"
GUESS = {"name": "guess", "kind": "integer", "min": 1, "max": 10}
CITY = {"name": "city", "kind": "choice", "choices": ["Paris", "Rome", "Oslo"]}
WHY = {"name": "why", "kind": "text", "max_length": 40, "optional": True}


def design(resolver: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "title": "Guess low",
        "rounds": 3,
        "fields": [GUESS, CITY, WHY],
        "resolver": resolver,
        **more,
    }


def pick(guess: int, city: str = "Paris", why: str | None = None) -> dict[str, Any]:
    return {"guess": guess, "city": city, "why": why}


def played(options: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    scenario = {"game": "custom", "options": options, "players": THREE, "steps": steps}
    return play_scenario(scenario, match_id=UUID(int=20), start_time=START, seed=b"\0" * 32).records


def told(records: list[dict[str, Any]], step: int) -> list[str]:
    """The step's account without its first line (which names the step)."""
    return account(records, step)[1:]


def rows(records: list[dict[str, Any]], seq: int | None = None) -> dict[str, str]:
    """The results table's rows in the picture: round number -> the row's text."""
    at = len(records) - 1 if seq is None else seq
    drawn = ET.fromstring(str(picture(records, at)))  # noqa: S314 - the SVG our own code just drew
    found = {}
    for group in drawn.iter(f"{SVG}g"):
        if group.get("class") == "round":
            texts = [t.text or "" for t in group.iter(f"{SVG}text")]
            found[str(group.get("data-round"))] = " ".join(texts)
    return found


def plain(lines: list[str]) -> None:
    """Words for people: no Python or JSON reprs, no snake_case keys."""
    for line in lines:
        assert "None" not in line and "null" not in line, line
        assert not re.search(r"[{}\[\]\"]|\b[a-z]+_[a-z]+\b", line), line


LOWEST = played(
    design({"kind": "lowest-unique", "field": "guess"}),
    [
        {"submit": {"ana": pick(3, why="a “fine” pick"), "ben": pick(3), "cai": pick(5, "Rome")}},
        {"submit": {"ana": pick(2), "ben": pick(2), "cai": pick(2)}},
        {"submit": {"ana": pick(4), "ben": pick(9)}},
    ],
)


def test_a_lowest_unique_round_says_who_won_with_what_and_why() -> None:
    assert told(LOWEST, 1)[-2:] == [
        "Round 1: cai won with 5, the lowest number nobody else chose.",
        "cai gains 1 point.",
    ]
    assert "ana picked guess 3; city Paris; why “a “fine” pick”." in told(LOWEST, 1)
    assert told(LOWEST, 2)[-1] == (
        "Round 2: nobody won: every number was chosen by two players or more."
    )
    # cai sent nothing in round 3 and the design has no default: no part in the round.
    third = told(LOWEST, 3)
    assert "cai submitted nothing, so they take no part in this round." in account(LOWEST, 3)
    assert third[-2] == "Round 3: ana won with 4, the lowest number nobody else chose."
    for step in (1, 2, 3):
        plain(told(LOWEST, step))


def test_the_picture_has_a_row_per_round_with_the_values_and_the_winners() -> None:
    table = rows(LOWEST)
    assert list(table) == ["1", "2", "3"]
    assert table["1"].startswith("1 ana: 3 · ben: 3 · cai: 5")
    assert "★ cai" in table["1"]
    assert "nobody" in table["2"]
    assert "ana: 4 · ben: 9 · cai —" in table["3"]
    drawn = str(picture(LOWEST, len(LOWEST) - 1))
    assert "Guess low · won by" in drawn
    points = dict(re.findall(r'data-player="(\w+)" data-points="(\d+)"', drawn))
    assert points == {"ana": "1", "ben": "0", "cai": "1"}
    # Before the first round resolves: no rows, the heading counts the rounds.
    opened = next(r["seq"] for r in LOWEST if r["type"] == "StepOpened")
    assert rows(LOWEST, opened) == {}
    assert "round 1 of 3" in str(picture(LOWEST, opened))


def test_the_chart_plots_each_players_points_by_round() -> None:
    drawn = str(chart(LOWEST))
    assert "<svg" in drawn
    assert "round" in drawn


def test_a_plurality_tie_names_the_values_and_every_winner() -> None:
    records = played(
        design({"kind": "plurality", "field": "city"}, rounds=1, points=2),
        [{"submit": {"ana": pick(1, "Paris"), "ben": pick(1, "Rome"), "cai": pick(1, "Oslo")}}],
    )
    # Oslo, Paris and Rome are each chosen once: all three tie, sorted by code point.
    assert told(records, 1)[-2:] == [
        "Round 1: Oslo, Paris and Rome tied as the most chosen, so ana, ben and cai won.",
        "ana, ben and cai gain 2 points each.",
    ]
    assert for_match("custom", PublicLog.of(records).options).result_words(
        {"points": {"ana": 2, "ben": 2, "cai": 2}, "winners": THREE}, THREE
    ) == [
        "A tie: ana, ben and cai win the match, with 2 points each.",
        "Points: ana 2, ben 2, cai 2.",
    ]


def test_a_declared_round_quotes_the_hosts_note_in_the_account_and_the_table() -> None:
    records = played(
        design({"kind": "host"}, rounds=2),
        [
            {
                "submit": {"ana": pick(1, why="puns"), "ben": pick(2, why="more puns")},
                "declare": {"winners": ["ben"], "note": "best pun"},
            },
            {"submit": {"ana": pick(1)}, "declare": {"winners": [], "note": ""}},
        ],
    )
    assert told(records, 1)[-2:] == [
        "Round 1: the host declared ben the winner: “best pun”.",
        "ben gains 1 point.",
    ]
    assert told(records, 2)[-1] == "Round 2: the host declared no winner."
    table = rows(records)
    assert "ben: guess 2; city Paris; why “more puns”" in table["1"]
    assert "★ ben" in table["1"] and "host's note: “best pun”" in table["1"]
    plain(told(records, 1))


def test_picks_sealed_until_the_end_are_said_sealed_and_shown_once_the_match_ends() -> None:
    records = played(
        design({"kind": "highest-unique", "field": "guess"}, rounds=2, disclosure="at-end"),
        [
            {"submit": {"ana": pick(3), "ben": pick(7), "cai": pick(7)}},
            {"submit": {"ana": pick(1), "ben": pick(2), "cai": pick(3)}},
        ],
    )
    first = next(r["seq"] for r in records if r["type"] == "StepResolved")
    assert "sealed until the match ends" in rows(records, first)["1"]
    # At the end every pick is disclosed: the table and the account show the values.
    assert "ana: 3 · ben: 7 · cai: 7" in rows(records)["1"]
    assert told(records, 1)[-2] == "Round 1: ana won with 3, the highest number nobody else chose."


def test_the_summary_and_terms_are_the_matchs_own_design() -> None:
    shown = for_match("custom", design({"kind": "lowest-unique", "field": "guess"}, points=2))
    summary = " ".join(shown.summary)
    assert summary.startswith("Guess low, designed by the host. 3 rounds")
    assert "guess: a whole number from 1 to 10" in summary
    assert "city: one of Paris, Rome or Oslo" in summary
    assert "why: a text of up to 40 characters (you may leave it empty)" in summary
    assert "lowest number nobody else chose wins the round" in summary
    assert "gain 2 points" in summary
    assert "takes no part" in summary
    terms = dict(shown.terms)
    assert terms["guess"] == "a whole number from 1 to 10"
    assert "lowest number" in terms["lowest unique number"]
    plain(list(shown.summary))
    # Without a match (the rules page) the general words stand.
    assert presentation("custom").summary[0].startswith("The host designs the game")


def test_the_room_says_the_round_the_points_and_what_the_round_did_to_you() -> None:
    shown = for_match("custom", PublicLog.of(LOWEST).options)
    log = PublicLog.of(LOWEST)
    after_one = next(r for r in LOWEST if r["type"] == "StepResolved")["data"]["view"]
    assert shown.seat_words(after_one, {}, "cai") == [
        "Guess low.",
        "Round 2 of 3.",
        "Winners so far: round 1: cai.",
        "Points: ana 0, ben 0, cai 1.",
        "You have 1 point.",
    ]
    assert shown.for_you(log.steps[1], "cai") == [
        "Your pick: guess 5; city Rome.",
        "You won round 1 and gain 1 point.",
    ]
    assert shown.for_you(log.steps[3], "cai") == [
        "You sent nothing in time, so you took no part in round 3.",
        "You did not win round 3.",
    ]
    assert shown.default_for_you({"guess": None, "city": None, "why": None}) == (
        "you take no part in this round"
    )
    defaulted = for_match("custom", {**design({"kind": "host"}), "default": pick(5)})
    assert defaulted.default_for_you(pick(5)) == "you get the default pick (guess 5; city Paris)"
    assert shown.progress(after_one, True) == "round 2 of 3 under way"


def test_the_hosts_declaration_is_awaited_in_plain_words() -> None:
    shown = presentation("custom")
    asked = {"player": "host", "kind": "declare", "prompt": {"round": 2, "picks": {}}}
    assert shown.decision_words(asked, "ana") == (
        "Waiting for the host to declare the winners of round 2."
    )
    assert shown.decision_words(asked, "host").startswith("Declare the winners of round 2")
    assert shown.default_decision(asked, {"winners": [], "note": ""}) == (
        "nobody wins round 2",
        "nobody won round 2",
    )


def test_a_long_title_is_kept_whole_and_the_winners_left_to_the_table() -> None:
    """A title and the winners that do not fit together: the title stays whole."""
    long_title = {
        **design({"kind": "highest-unique", "field": "guess"}),
        "title": "Sealed-bid auction",
    }
    rounds = [(9, 5, 3), (3, 9, 5), (5, 3, 9)]  # each wins a round: a three-way tie
    records = played(
        long_title,
        [{"submit": {"ana": pick(a), "ben": pick(b), "cai": pick(c)}} for a, b, c in rounds],
    )
    drawn = str(picture(records, len(records) - 1))
    assert "Sealed-bid auction · over" in drawn
    assert "auc…" not in drawn
    short = str(picture(LOWEST, len(LOWEST) - 1))
    assert "Guess low · won by" in short  # a title that fits keeps the winners beside it
