"""The match list says each match in words, projected from its public records, on both stores.

Each match's row carries its name, a human status ("Turn 2: waiting for cai to decide",
"Finished: ben wins with 2 votes"), the deadline a page counts down to and the winners
(:mod:`service.readmodel`'s summary, said by :func:`web.matchlist.listing`). A store made
before the summary existed gets it built from its log once, with nothing applied twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import delete

from replay.bundle import load_bundle
from service.bootstrap import bootstrap
from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS, archive_of, seat_all
from tests.unit.test_replay_fixtures import BUNDLES
from web.extension import replay_bundles
from web.matchlist import listing

if TYPE_CHECKING:
    from service.application import DealerRoom
    from service.config import Settings


def rows(service: DealerRoom) -> dict[str, dict[str, Any]]:
    """The match list in words, by match id."""
    return {m["match_id"]: listing(m) for m in service.matches()}


def play(service: DealerRoom, name: str, steps: int | None = None) -> str:
    """Play a scenario (its first ``steps`` steps only, if given); return the match id."""
    scenario = load_scenario(SCENARIOS / f"{name}.json")
    if steps is not None:
        scenario = {**scenario, "steps": scenario["steps"][:steps]}
    lines = run_scenario(service, scenario)
    match = str(next(lines)["match_id"])
    for _ in lines:
        pass
    return match


def test_each_match_is_said_in_words_with_its_winners(service: DealerRoom) -> None:
    # 1. A match nobody has started waits for its host.
    waiting = service.create_match("vote", ["ana", "ben"])["match_id"]
    # 2. An open step: its kind and number, and the deadline to count down to.
    voting = service.create_match("vote", ["ana", "ben", "cai"])["match_id"]
    service.open_step(voting, seconds=600)
    # 3. Finished matches: the game's own result words and the winners.
    vote = play(service, "vote-basic")
    apocalypse = play(service, "apocalypse-bot-match")
    listed = rows(service)

    # Check the words of each
    assert listed[waiting]["status_words"] == "Waiting for the host"
    assert listed[waiting]["title"] == "Hidden vote match"
    assert listed[waiting]["live"] is True and listed[waiting]["winner_words"] == ""
    assert listed[voting]["status_words"] == "The vote open"
    assert listed[voting]["deadline"].endswith("+00:00")
    assert listed[vote]["status_words"] == "Finished: ben wins with 2 votes"
    assert listed[vote]["winners"] == ["ben"] and listed[vote]["live"] is False
    assert listed[apocalypse]["display_name"] == "Apocalypse"
    assert listed[apocalypse]["winners"] == listed[apocalypse]["winner_words"].split(", ")
    assert listed[apocalypse]["status_words"].startswith("Finished: ")
    assert "result" not in listed[vote]  # the words say it; the list stays small


def test_a_pending_decision_names_who_it_waits_on(service: DealerRoom) -> None:
    scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
    made = service.create_match("six-nimmt", scenario["players"])
    mid = made["match_id"]
    seat_all(service, made)
    for step in scenario["steps"][:2]:
        service.open_step(mid, deal=step.get("deal"))
        for player, payload in step["submit"].items():
            service.submit(mid, player, payload)
        service.seal(mid)
    row = rows(service)[mid]
    assert row["status_words"] == "Turn 2: waiting for cai to decide"
    assert row["claimed"] == ["ana", "ben", "cai"]
    assert row["deadline"] is not None  # the decision's own deadline


def test_an_imported_match_is_said_from_its_bundle(service: DealerRoom) -> None:
    bundle = load_bundle((BUNDLES / "picking-nine-seeded.bundle.json").read_bytes())
    assert archive_of(service).import_bundle(bundle).action == "imported"
    row = rows(service)[bundle["match_id"]]
    assert row["imported"] is True
    assert row["winners"] == ["pengu"]
    assert row["status_words"].startswith("Finished: pengu wins the ToL")


def test_a_store_without_the_summary_gets_it_built_from_its_log(settings: Settings) -> None:
    first = bootstrap(settings, bundles=replay_bundles())
    try:
        room = first.room
        vote = play(room, "vote-basic")
        running = room.create_match("vote", ["ana", "ben"])["match_id"]
        room.open_step(running, seconds=600)
        before = rows(room)
        # 1. Forget the summary as a store made before it existed never had it.
        index = room.index
        index.summary.drop(index.engine)
        with index.engine.begin() as conn:
            conn.execute(delete(index.tracking).where(index.tracking.c.name == index.SUMMARY))
        position = index.position()
    finally:
        first.close()
    # 2. Opening the store builds it from the log, and nothing is applied twice.
    again = bootstrap(settings, bundles=replay_bundles())
    try:
        room = again.room
        assert room.index.position() == position
        after = rows(room)
        assert after[vote]["winners"] == ["ben"]
        assert after[vote]["status_words"] == before[vote]["status_words"]
        assert after[running]["status_words"] == "The vote open"
        # 3. From then on it follows the log as before.
        room.submit(running, "ana", {"vote": "ben"})
        room.submit(running, "ben", {"vote": "ben"})
        room.seal(running)
        assert rows(room)[running]["winners"] == ["ben"]
    finally:
        again.close()


def test_a_named_match_that_runs_itself_says_so_until_its_host_ends_it(
    service: DealerRoom,
) -> None:
    made = service.create_match(
        "six-nimmt", ["ana", "ben"], name="Friday night", auto_open=True, auto_seal=True,
        step_seconds=300,
    )  # fmt: skip
    mid = made["match_id"]
    # 1. Seats not all claimed yet: the match waits for its players, not for its host.
    service.claim(mid, "ana", made["invites"]["ana"])
    row = rows(service)[mid]
    assert row["title"] == row["name"] == "Friday night"
    assert row["settings"] == {"auto_open": True, "auto_seal": True, "step_seconds": 300}
    assert row["status_words"] == "Waiting for the players: 1 of 2 seats claimed"
    # 2. The last claim opens the first turn by itself, with its deadline.
    service.claim(mid, "ben", made["invites"]["ben"])
    row = rows(service)[mid]
    assert row["status_words"] == "Turn 1 open"
    assert row["deadline"] is not None and row["live"] is True
    # 3. The host ends it early: over, with the reason and no winner.
    service.end_match(mid, "the venue closed")
    row = rows(service)[mid]
    assert row["status_words"] == "Ended early: the venue closed"
    assert row["live"] is False and row["deadline"] is None
    assert row["winner_words"] == "no winner"
    assert service.index.due(service.now()) == []  # nothing falls due any more


def test_matches_made_without_settings_read_as_all_off(service: DealerRoom) -> None:
    mid = service.create_match("vote", ["ana", "ben"])["match_id"]
    row = rows(service)[mid]
    assert row["name"] == "" and row["title"] == "Hidden vote match"
    assert row["settings"] == {"auto_open": False, "auto_seal": False, "step_seconds": None}
    assert row["status_words"] == "Waiting for the host"


def test_a_custom_match_is_listed_by_its_design_s_title_unless_the_host_named_it(
    service: DealerRoom,
) -> None:
    played = play(service, "custom-lowest-unique", steps=1)
    design = {
        "title": "Pun night",
        "fields": [{"name": "number", "kind": "integer", "min": 1, "max": 5}],
    }
    named = service.create_match("custom", ["ana", "ben"], design, name="Friday")["match_id"]
    plain = service.create_match("custom", ["ana", "ben"], {})["match_id"]
    listed = rows(service)
    # The design's title is what the list calls the match; its game stays "Custom game".
    assert listed[played]["title"] == "Lowest unique number"
    assert listed[played]["display_name"] == "Custom game"
    assert listed[played]["name"] == ""
    assert listed[named]["title"] == "Friday"  # the host's own name comes first
    assert listed[plain]["title"] == "Custom game match"  # the default title names nothing new
    # Other games are as before: no title of their own.
    vote = service.create_match("vote", ["ana", "ben"])["match_id"]
    assert rows(service)[vote]["title"] == "Hidden vote match"
