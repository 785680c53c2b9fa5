"""Matches recorded by the service verify with the offline verifier, and tampering is caught."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import pytest

from replay.bundle import build_bundle, dump_bundle, load_bundle
from replay.verify import verify_bundle
from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS

if TYPE_CHECKING:
    from service.application import DealerRoom


def service_bundle(app: DealerRoom, name: str) -> dict:
    lines = list(run_scenario(app, load_scenario(SCENARIOS / name)))
    match_id = lines[0]["match_id"]
    records = app.records(match_id)
    checkpoints = app.tlog.every_checkpoint(match_id)
    return build_bundle(records, checkpoints, app.public_key())


@pytest.mark.parametrize(
    "name",
    ["vote-basic.json", "six-nimmt-classic.json", "apocalypse-bot-match.json",
     "picking-nine-six-bots.json", "grid-adaptation-ec-vote.json"],
)  # fmt: skip
def test_a_match_recorded_by_the_service_passes_every_offline_check(
    sqlite_service: DealerRoom, name: str
) -> None:
    bundle = load_bundle(dump_bundle(service_bundle(sqlite_service, name)))
    verdict = verify_bundle(bundle, trusted_key=sqlite_service.public_key())
    assert verdict.ok and verdict.complete, str(verdict)


def test_tampering_with_a_recorded_match_fails_and_names_the_first_bad_event(
    service: DealerRoom,
) -> None:
    honest = service_bundle(service, "vote-basic.json")
    reveal = next(r["seq"] for r in honest["records"] if r["type"] == "SubmissionRevealed")

    changed = copy.deepcopy(honest)  # change a byte of a reveal
    salt = changed["records"][reveal]["data"]["salt"]
    changed["records"][reveal]["data"]["salt"] = ("1" if salt[0] == "0" else "0") + salt[1:]
    dropped = copy.deepcopy(honest)  # drop one event
    del dropped["records"][reveal]
    swapped = copy.deepcopy(honest)  # swap two events
    records = swapped["records"]
    records[reveal], records[reveal + 1] = records[reveal + 1], records[reveal]
    truncated = copy.deepcopy(honest)  # truncate the log
    truncated["records"] = truncated["records"][:reveal]
    for forged in (changed, dropped, swapped, truncated):
        verdict = verify_bundle(forged, trusted_key=service.public_key())
        assert not verdict.ok
        merkle = verdict.check("merkle")
        assert merkle.status == "fail" and merkle.first_bad_seq is not None
        assert merkle.first_bad_seq <= reveal
