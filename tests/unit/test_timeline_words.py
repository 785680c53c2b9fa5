"""The timeline's words for people: records, what changed, where a match stands, its result.

Everything here is read from the fixture bundles' public records, as the page reads them.
"""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

import pytest

from domain.record_text import describe, label, names, pick_words, sentence, time_words
from replay.bundle import load_bundle
from replay.state import MatchReplay
from web.pictures import picture
from web.timeline import head, moment, record_number, rows, what_changed

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
HONEST = [
    "vote-basic",
    "six-nimmt-classic",
    "six-nimmt-even-odd",
    "apocalypse-bot-match",
    "picking-nine-six-bots",
    "picking-nine-seeded",
    "grid-adaptation-ec-vote",
]
MACHINE_WORDS = re.compile(
    r"[{}\[\]]|\b(null|true|false|None)\b|[A-Z][a-z]+[A-Z][a-z]+|→ \[|\w+\.\w+:"
)
"""JSON, Python values, CamelCase record types or a raw state diff ("rows[0]: [] → [24]")."""


@functools.cache
def _loaded(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())["records"])


def records(name: str) -> list[dict[str, Any]]:
    return copy.deepcopy(list(_loaded(name)))


def seq_of(recs: list[dict[str, Any]], kind: str, step: int | None = None) -> int:
    return next(
        r["seq"]
        for r in recs
        if r["type"] == kind and (step is None or r["data"].get("step") == step)
    )


# ---------------------------------------------------------------------------
# One record in words
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", HONEST)
def test_every_record_is_said_in_words_without_json_or_record_types(name: str) -> None:
    for record in records(name):
        said = describe(record)
        assert said and not MACHINE_WORDS.search(said), (record["seq"], said)
        assert sentence(record).endswith((".", "…")), said
        assert label(record["type"]) != record["type"]


def test_a_sentence_keeps_a_player_s_name_as_written_and_capitalises_the_rest() -> None:
    revealed = {"type": "SubmissionRevealed", "data": {"player": "ana", "payload": {"card": 3}}}
    assert sentence(revealed) == "ana's pick is revealed: card 3."
    assert sentence({"type": "MatchFinished", "data": {}}) == "The match is over."
    assert describe({"type": "Unheard", "data": {}}) == "Unheard"


def test_a_pick_is_said_field_by_field() -> None:
    assert pick_words({"card": 39}) == "card 39"
    assert pick_words({"vote": "ben"}) == "vote ben"
    assert (
        pick_words({"tiles": ["H8"], "reserve": None, "flip": None, "buy_reserves": 0})
        == "tiles H8; buy reserves 0"
    )
    assert pick_words({"x": "y" * 500}, limit=20).endswith("…")
    assert names(["ana", "ben"]) == "ana and ben"
    assert time_words("2026-11-21T20:01:06.000000Z") == "2026-11-21 20:01 UTC"


def test_the_game_is_named_for_people_in_the_first_record() -> None:
    assert describe(records("six-nimmt-classic")[0]) == "a match of 6 nimmt! for ana, ben and cai"
    assert "Picking Nine Possibilities" in describe(records("picking-nine-seeded")[0])


def test_a_step_sealed_names_who_sent_nothing() -> None:
    sealed = {"type": "StepSealed", "data": {"step": 3, "missing": ["ben", "cai"]}}
    assert describe(sealed) == "step 3 sealed: no more picks; ben and cai sent nothing"


# ---------------------------------------------------------------------------
# What changed at a record
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", HONEST)
def test_what_changed_is_sentences_never_a_state_diff(name: str) -> None:
    recs = records(name)
    for at in range(len(recs)):
        words = what_changed(recs, at)
        assert words[0] == sentence(recs[at])
        assert len(words) == len(set(words))
        for line in words:
            assert not MACHINE_WORDS.search(line), (at, line)


def test_what_changed_at_a_resolution_is_the_step_s_account() -> None:
    recs = records("six-nimmt-even-odd")
    words = what_changed(recs, seq_of(recs, "StepResolved", 1))
    assert words[0] == "Step 1 resolved by the rules."
    assert (
        "cai's 22 was lower than every row end it may enter; cai chose row 3: cai took 102 "
        "(1 bullhead) and 22 starts the row."
    ) in words
    assert "Points now: ana 66, ben 66, cai 65, virtual 66." in words
    # A reveal says the pick, and the account's running list of reveals.
    reveal = what_changed(recs, seq_of(recs, "SubmissionRevealed", 1))
    assert reveal[0] == "ana's pick is revealed: card 39."
    assert "Revealed: ana 39." in reveal


def test_what_changed_at_the_end_of_a_match_is_its_result_in_words() -> None:
    recs = records("picking-nine-seeded")
    words = what_changed(recs, seq_of(recs, "MatchFinished"))
    assert words[0] == "The match is over."
    assert any("ToL" in w for w in words)
    assert any(w.startswith("EC") for w in words)
    assert any(w.startswith("Garnets") for w in words)
    # A pick revealed after the match tells the step it was made in.
    late = what_changed(recs, seq_of(recs, "SubmissionRevealed", 1))
    assert any(w.startswith("Revealed after the match: tog wanted") for w in late)


def test_what_changed_outside_the_log_is_a_clear_error() -> None:
    recs = records("vote-basic")
    with pytest.raises(IndexError, match="records 0 to 14"):
        what_changed(recs, 15)
    with pytest.raises(IndexError):
        moment(recs, -1, MatchReplay(recs))


# ---------------------------------------------------------------------------
# Captions that match the moment
# ---------------------------------------------------------------------------


def test_the_caption_after_the_seal_says_sealed_not_open() -> None:
    recs = records("six-nimmt-classic")
    sealed = seq_of(recs, "StepSealed", 2)
    label_of = re.search(r'aria-label="([^"]*)"', str(picture(recs, sealed))).group(1)  # type: ignore[union-attr]
    assert "step 2 sealed" in label_of and "open" not in label_of
    assert "(step sealed)" in label_of
    opened = str(picture(recs, seq_of(recs, "StepOpened", 2)))
    assert "step 2 open: 0 of 3 picks sealed" in opened
    asked = str(picture(recs, seq_of(recs, "DecisionRequested", 2)))
    assert "step 2: waiting for cai to decide" in asked
    resolved = str(picture(recs, seq_of(recs, "StepResolved", 2)))
    assert "step 2 resolved" in resolved
    assert "the match is over" in str(picture(recs, len(recs) - 1))


def test_a_moment_knows_its_record_and_its_group() -> None:
    recs = records("six-nimmt-even-odd")
    board = MatchReplay(recs)
    at = seq_of(recs, "StepSealed", 2)
    shown = moment(recs, at, board)
    assert (shown.at, shown.last, shown.label) == (at, len(recs) - 1, "Step sealed")
    assert shown.group == "group-step-2"
    assert moment(recs, 0, board).group == "group-setup"
    assert moment(recs, len(recs) - 1, board).group == "group-end"


# ---------------------------------------------------------------------------
# Where the match stands, and its result
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("vote-basic", ["ben wins with 2 votes."]),
        ("picking-nine-seeded", ["pengu wins the ToL", "EC (Elimination Candidates)", "Garnets"]),
        (
            "grid-adaptation-ec-vote",
            ["Tokens of Life (ToL)", "Elimination Candidate (EC)", "Garnets"],
        ),
        ("apocalypse-bot-match", ["ana (White) wins"]),
        ("six-nimmt-classic", ["cai wins with 44 points"]),
    ],
)
def test_a_finished_match_says_its_result_in_words(name: str, words: list[str]) -> None:
    said = head(records(name))
    assert said.standing == ["The match is over."]
    assert said.finished_at
    for word in words:
        assert any(word in line for line in said.result), (word, said.result)
    for line in said.result:
        assert not MACHINE_WORDS.search(line), line


def test_a_running_match_says_who_is_awaited_and_when_picks_are_due() -> None:
    recs = records("six-nimmt-classic")
    said = head(recs[: seq_of(recs, "StepOpened", 1) + 2])
    assert said.game == "6 nimmt!" and said.players == "ana, ben and cai"
    assert said.standing == [
        "Step 1 is open: 1 of 3 picks sealed (ana).",
        "Waiting for ben and cai.",
    ]
    assert said.result == [] and said.finished_at is None
    asked = head(recs[: seq_of(recs, "DecisionRequested", 2) + 1])
    assert asked.standing[0] == "Step 2 is sealed."
    assert "cai" in asked.standing[1]
    assert asked.deadline_words == "The decision is due" and asked.deadline
    resolved = head(recs[: seq_of(recs, "StepResolved", 2) + 1])
    assert resolved.standing == ["Step 2 is resolved; the host opens the next one."]
    assert head(recs[:2]).standing == ["No step is open yet: the host opens the first one."]


# ---------------------------------------------------------------------------
# The log's groups, and ?at=
# ---------------------------------------------------------------------------


def test_the_log_groups_records_by_step_with_their_resolution_and_round() -> None:
    recs = records("six-nimmt-even-odd")
    groups = rows(recs, accounts=True)
    assert [g.key for g in groups[:3]] == ["setup", "step-1", "step-2"]
    assert groups[-1].key == "end"
    step_one = groups[1]
    assert step_one.resolved == seq_of(recs, "StepResolved", 1)
    assert step_one.round == 1
    assert step_one.account[0] == "Round 1, turn 1."  # the title says "Step 1" already
    assert [g.round for g in groups if g.step in (10, 11)] == [1, 2]
    row = next(r for r in step_one.rows if r["type"] == "SubmissionRevealed")
    assert row["label"] == "Pick revealed" and row["pick"] == '{"card": 39}'
    assert row["player"] == "ana" and row["salt"]
    assert all(r["pick"] is None for r in step_one.rows if r["type"] == "DecisionMade")


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("14", 14), ("15", None), ("-1", None), ("abc", None), ("", None),
     ("1.5", None), ("٣", None), (None, None)],
)  # fmt: skip
def test_a_record_number_is_a_whole_number_inside_the_log(
    text: str | None, number: int | None
) -> None:
    assert record_number(text, 14) == number


def test_a_match_the_host_ended_early_says_so_and_its_disclosures_close_the_log() -> None:
    recs = records("vote-basic")
    cut = recs[: seq_of(recs, "StepSealed", 1)]
    at = cut[-1]["at"]
    ended = {
        "seq": len(cut),
        "type": "MatchEnded",
        "at": at,
        "data": {"actor": "host", "reason": "a power cut"},
    }
    cut.append(ended)
    assert describe(ended) == "the host ended the match early: a power cut"
    assert label("MatchEnded") == "Match ended early"
    assert rows(cut)[-1].key == "end"
    said = head(cut)
    assert said.ended_early == "a power cut" and said.finished_at == at
    assert said.result == []
    assert what_changed(cut, len(cut) - 1)[0] == "The host ended the match early: a power cut."
