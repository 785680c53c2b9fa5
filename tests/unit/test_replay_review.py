"""Dispute review from a bundle: the state at any event, what-if tables, verifier progress."""

from __future__ import annotations

import io
from typing import Any

import pytest

from replay.bundle import load_bundle
from replay.review import ReviewError, parse_what_if, state_at, what_if_table
from replay.state import (
    MatchReplay,
    ReplayContext,
    advance,
    diff_pairs,
    diff_values,
    initial_frame,
)
from replay.verify import PROGRESS_EVERY, PROGRESS_LARGE, progress_reporter
from replay.whatif import what_if
from tests.unit.test_replay_fixtures import BUNDLES

HONEST = sorted(
    p.name.removesuffix(".bundle.json")
    for p in BUNDLES.glob("*.bundle.json")
    if p.name.count(".") == 2  # <name>.bundle.json; tampered copies have one more part
)


def bundle(name: str) -> dict[str, Any]:
    return load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())


@pytest.mark.parametrize("name", HONEST)
def test_the_state_at_every_event_is_the_state_of_a_replay_from_the_start(name: str) -> None:
    records = bundle(name)["records"]
    board = MatchReplay(records, snapshot_every=16)
    ctx = ReplayContext.from_records(records)
    players = ctx.players
    fresh = initial_frame()
    previous: dict[str, Any] = {}
    for seq, record in enumerate(records):
        fresh = advance(ctx, fresh, record)
        shown = state_at(board, seq)
        # Check the public view, and the diff from the event before
        assert shown["state"] == dict(fresh.view), f"{name} event {seq}"
        assert shown["changes"] == diff_values(previous, dict(fresh.view))
        assert shown["record"] == record and shown["unknown"] is None
        previous = dict(fresh.view)
        # Check each player's own view (every fixture is a finished, disclosed match)
        if seq % 7 == 0:
            for player in players:
                own = state_at(board, seq, player)["state"]
                assert own == ctx.rules.private_view(fresh.state, player)


def test_a_players_view_before_disclosure_is_refused_not_guessed() -> None:
    records = bundle("six-nimmt-even-odd")["records"]
    under_way = MatchReplay(records[:20])  # no seed, no private deals yet
    with pytest.raises(ReviewError, match="not disclosed in this bundle"):
        state_at(under_way, 15, "ana")
    shown = state_at(under_way, 15)
    assert shown["unknown"] is not None  # the recorded view, said so
    assert shown["state"] == records[13]["data"]["view"]


@pytest.mark.parametrize(
    ("seq", "player", "message"),
    [
        (424, None, "event 424 is outside the log: the bundle holds records 0..423"),
        (-1, None, "event -1 is outside the log"),
        (3, "zed", "'zed' is not a player of this match (players: ana, ben, cai)"),
    ],
)
def test_an_event_or_player_the_bundle_lacks_is_a_review_error(
    seq: int, player: str | None, message: str
) -> None:
    board = MatchReplay(bundle("six-nimmt-even-odd")["records"])
    with pytest.raises(ReviewError, match=message.replace("(", r"\(").replace(")", r"\)")):
        state_at(board, seq, player)


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ('3:ana={"card": 11}', (3, "ana", {"card": 11})),
        ("12:cai={}", (12, "cai", {})),
        ('1:dee={"vote": "a=b:c"}', (1, "dee", {"vote": "a=b:c"})),
    ],
)
def test_a_what_if_spec_splits_into_step_player_and_payload(spec: str, parsed: tuple) -> None:
    assert parse_what_if(spec) == parsed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ana={}", "is not STEP:PLAYER=JSON"),
        ("3:ana", "is not STEP:PLAYER=JSON"),
        ("0:ana={}", "STEP must be a step number, not '0'"),
        ("-2:ana={}", "STEP must be a step number"),
        ("3:={}", "PLAYER is empty"),
        ("3:ana={card: 1}", "is not JSON"),
    ],
)
def test_a_malformed_what_if_spec_names_the_bad_part(spec: str, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        parse_what_if(spec)


def test_diff_pairs_are_the_places_of_the_readable_diff() -> None:
    old = {"rows": [[3], [19]], "points": {"ana": 66}, "gone": 1}
    new = {"rows": [[3, 11], [19]], "points": {"ana": 61}, "new": [1]}
    found = diff_pairs(old, new)
    assert [path for path, _, _ in found] == ["rows[0]", "points.ana", "gone", "new"]
    assert [line.split(":")[0] for line in diff_values(old, new)] == [p for p, _, _ in found]
    assert diff_pairs(None, {"a": 1}) == [("(the whole value)", None, {"a": 1})]


def test_the_what_if_table_of_one_card_changed_in_six_nimmt_marks_the_divergence() -> None:
    # In turn 1 ana played 39; make her play 21, below every row.
    result = what_if(bundle("six-nimmt-even-odd"), 1, "ana", {"card": 21})
    table = what_if_table(result)

    assert table[0] == 'what if ana had submitted {"card": 21} in step 1'
    assert table[1] == "first divergent step: 1"
    first = table.index("step 1  ≠ diverges (first divergence)")
    # Check the recorded and the new value stand side by side: cai's 22 became ana's 21
    row = table[first + 1].split()
    assert row == ["outcome.plays[0].bullheads", "1", "0"]
    assert table[first + 2].split() == ["outcome.plays[0].card", "22", "21"]
    assert table[first + 3].split() == ["outcome.plays[0].player", '"cai"', '"ana"']
    assert "step 2  ≠ diverges" in table
    assert table.count("step 1  ≠ diverges (first divergence)") == 1
    assert any("ana's recorded pick is illegal now" in line for line in table)
    assert "result  ≠ differs" in table


def test_the_what_if_table_of_the_recorded_pick_shows_no_divergence() -> None:
    table = what_if_table(what_if(bundle("six-nimmt-even-odd"), 5, "ben", {"card": 12}))
    assert table[1] == "first divergent step: none, the course is the recorded one"
    assert not any("≠" in line for line in table)
    assert table[-1] == "result  = the same"


# ---------------------------------------------------------------------------- progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_is_one_line_rewritten_then_cleared() -> None:
    stream = Terminal()
    report = progress_reporter(PROGRESS_EVERY, stream)
    assert report is not None
    report(PROGRESS_EVERY, 2 * PROGRESS_EVERY)
    report(2 * PROGRESS_EVERY, 2 * PROGRESS_EVERY)
    assert stream.getvalue() == "\r\x1b[Kverifying 4,096 records: 50%\r\x1b[K"
    assert "\n" not in stream.getvalue()


def test_small_bundles_report_no_progress_and_large_ones_do_off_a_terminal() -> None:
    assert progress_reporter(PROGRESS_EVERY - 1, Terminal()) is None
    assert progress_reporter(PROGRESS_LARGE - 1, io.StringIO()) is None
    stream = io.StringIO()
    report = progress_reporter(PROGRESS_LARGE, stream)
    assert report is not None
    for done in range(0, 2 * PROGRESS_LARGE + 1, PROGRESS_EVERY):
        report(done, 2 * PROGRESS_LARGE)
    report(2 * PROGRESS_LARGE, 2 * PROGRESS_LARGE)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "verifying 50,000 records: 0%" and lines[-1].endswith(": 100%")
    assert len(lines) == 11  # one per tenth of the work
