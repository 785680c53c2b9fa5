"""`dealerroom export`, `import` and `replay`, run as a reviewer runs them (real processes)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from replay.bundle import load_bundle
from replay.state import ReplayContext, advance, initial_frame
from tests.conftest import SCENARIOS
from tests.e2e.test_cli import dealerroom
from tests.unit.test_replay_fixtures import BUNDLES
from tests.unit.test_replay_verify import big_bundle

if TYPE_CHECKING:
    import subprocess
    from pathlib import Path

NIMMT = BUNDLES / "six-nimmt-even-odd.bundle.json"


def errors(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.strip()]


def test_export_import_export_across_two_instances_gives_the_same_file(tmp_path: Path) -> None:
    # 1. Play a match on host A and export it
    host_a, host_b = tmp_path / "a", tmp_path / "b"
    host_a.mkdir(), host_b.mkdir()
    played = dealerroom(host_a, "simulate", str(SCENARIOS / "picking-nine-six-bots.json"))
    match = played.stderr.split()[1]
    exported = tmp_path / "match.bundle.json"
    done = dealerroom(host_a, "export", match, "-o", str(exported))
    assert done.returncode == 0, done.stderr
    assert f"wrote {exported}: match {match} (picking-nine)" in done.stderr
    to_stdout = dealerroom(host_a, "export", match)
    assert to_stdout.stdout.encode() == exported.read_bytes()
    assert dealerroom(host_a, "verify", str(exported)).returncode == 0

    # 2. Import it on host B, twice
    key = json.loads(dealerroom(host_a, "checkpoint", match).stdout)["public_key"]  # out of band
    done = dealerroom(host_b, "import", str(exported), "--trusted-key", key)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"imported match {match} (picking-nine, ")
    assert done.stdout.rstrip().endswith(
        "from dealerroom.localhost (key pinned): every check passed"
    )
    again = dealerroom(host_b, "import", str(exported), "--unpinned")
    assert again.returncode == 0
    assert again.stdout.startswith(f"already imported: match {match}")

    # 3. Host B exports the same bytes, lists it as imported, serves A's checkpoint and key
    reexported = tmp_path / "again.bundle.json"
    assert dealerroom(host_b, "export", match, "-o", str(reexported)).returncode == 0
    assert reexported.read_bytes() == exported.read_bytes()
    listing = dealerroom(host_b, "matches").stdout
    assert match in listing and "(imported; its log names dealerroom.localhost)" in listing
    checkpoint = json.loads(dealerroom(host_b, "checkpoint", match).stdout)
    bundle = load_bundle(exported.read_bytes())
    assert checkpoint["note"] == bundle["checkpoints"][-1]["note"]
    assert checkpoint["public_key"] == bundle["public_key"]


def test_a_tampered_bundle_is_refused_in_one_line_and_nothing_is_imported(tmp_path: Path) -> None:
    path = BUNDLES / "vote-basic.forged-outcome.bundle.json"
    done = dealerroom(tmp_path, "import", str(path), "--unpinned")
    assert done.returncode == 2
    (line,) = errors(done)
    assert line.startswith(f"dealerroom: error: refused {path}: ")
    assert "the outcomes check failed at seq 12:" in line
    assert line.endswith("nothing was imported")
    assert dealerroom(tmp_path, "matches").stdout.strip() == "no matches"


def test_a_bundle_signed_by_another_key_than_the_pinned_one_is_refused(tmp_path: Path) -> None:
    verdict = json.loads((BUNDLES / "vote-basic.rewritten-other-key.verdict.json").read_text())
    path = BUNDLES / "vote-basic.rewritten-other-key.bundle.json"
    done = dealerroom(tmp_path, "import", str(path), "--trusted-key", verdict["trusted_key"])
    assert done.returncode == 2
    (line,) = errors(done)
    assert "the signature check failed at seq 0: the bundle names the key" in line
    assert "also failed: receipts (seq 3)" in line


N = str(NIMMT)
TRUNCATED = str(BUNDLES / "vote-basic.truncated.bundle.json")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "nope"], "'nope' is not a match id"),
        (["export", "00000000-0000-4000-8000-000000000042"], "no match"),
        (["import", "missing.json", "--unpinned"], "cannot read bundle missing.json"),
        (["import", str(SCENARIOS / "vote-basic.json"), "--unpinned"],
         "is not a bundle: the bundle lacks"),
        (["import", N], "pin the host's key with --trusted-key KEY"),
        (["import", N, "--trusted-key", "k"], "--trusted-key is not a verifier key"),
        (["replay", N], "give either --at EVENT or --what-if STEP:PLAYER=JSON"),
        (["replay", N, "--at", "3", "--what-if", "1:ana={}"], "give either --at"),
        (["replay", "missing.json", "--at", "3"], "cannot read bundle missing.json"),
        (["replay", N, "--at", "x"], "EVENT is a record number (0, 1, ...), not 'x'"),
        (["replay", N, "--at", "424"], "event 424 is outside the log: the bundle holds records"),
        (["replay", N, "--at", "3", "--player", "zed"], "'zed' is not a player of this match"),
        (["replay", N, "--player", "ana"], "give either --at"),
        (["replay", N, "--what-if", "x:ana={}"], "STEP must be a step number, not 'x'"),
        (["replay", N, "--what-if", "99:ana={}"], "step 99 was not played; the match has steps"),
        (["replay", N, "--what-if", "1:zed={}"], "'zed' is not a player of this match"),
        (["replay", N, "--what-if", "1:ana={card}"], "what-if JSON '{card}' is not JSON"),
        (["replay", N, "--what-if", '1:ana={"card": 104}'], "is not a legal pick for ana in step"),
        (["replay", TRUNCATED, "--what-if", '1:dee={"vote": "ben"}'], "needs the whole match"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    done = dealerroom(tmp_path, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = errors(done)
    assert line.startswith("dealerroom: error: ") and message in line, line
    assert "Traceback" not in done.stderr


def test_replay_at_an_event_shows_the_state_a_replay_from_the_start_gives(tmp_path: Path) -> None:
    records = load_bundle(NIMMT.read_bytes())["records"]
    ctx = ReplayContext.from_records(records)
    fresh = initial_frame()
    frames = []
    for record in records:
        fresh = advance(ctx, fresh, record)
        frames.append(fresh)
    for seq in (0, 12, 200, 423):
        done = dealerroom(tmp_path, "replay", str(NIMMT), "--at", str(seq), "--json")
        assert done.returncode == 0, done.stderr
        shown = json.loads(done.stdout)
        assert shown["state"] == json.loads(json.dumps(frames[seq].view)), seq
        assert shown["record"] == records[seq]
    assert not (tmp_path / "instance").exists()  # the bundle alone: no database


def test_replay_at_an_event_reads_as_the_state_and_the_changes(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "replay", str(NIMMT), "--at", "12")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "match 00000000-0000-4000-8000-000000000003 (six-nimmt), event 12 of 0..423: "
        "StepResolved at 2026-11-21T20:00:08.000000Z by cai"
    )
    assert "public state after event 12:" in lines
    assert "  rows: [[24, 26, 31, 39], [7], [77], [22]]" in lines
    changes = lines[lines.index("changes since event 11:") + 1 :]
    assert "  rows[3]: [102] → [22]" in changes and "  played.ana: (none) → 39" in changes

    own = dealerroom(tmp_path, "replay", str(NIMMT), "--at", "12", "--player", "ana").stdout
    assert "ana's view after event 12:" in own
    assert "  hand: [21, 27, 29, 34, 41, 55, 62, 63, 96]" in own
    before = "[21, 27, 29, 34, 39, 41, 55, 62, 63, 96]"
    after = "[21, 27, 29, 34, 41, 55, 62, 63, 96]"
    assert f"  hand: {before} → {after}" in own


def test_what_if_one_card_changed_shows_both_courses_side_by_side(tmp_path: Path) -> None:
    # In turn 1 ana played 39; what if she had played 21, below every row?
    done = dealerroom(tmp_path, "replay", str(NIMMT), "--what-if", '1:ana={"card": 21}')
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == 'what if ana had submitted {"card": 21} in step 1'
    assert lines[2] == "first divergent step: 1"
    first = lines.index("step 1  ≠ diverges (first divergence)")
    assert lines[first + 2].split() == ["outcome.plays[0].card", "22", "21"]
    assert lines[-1].split()[0].startswith("result.")  # the results differ, side by side

    spec = '1:ana={"card": 21}'
    as_json = json.loads(dealerroom(tmp_path, "replay", N, "--what-if", spec, "--json").stdout)
    assert as_json["first_divergent_step"] == 1
    step1 = as_json["steps"][0]
    assert step1["diverged"] and step1["new_view"]["played"]["ana"] == 21
    assert step1["original_view"]["played"]["ana"] == 39


def test_verify_reports_progress_on_a_long_bundle_and_not_on_a_short_one(tmp_path: Path) -> None:
    path = tmp_path / "long.bundle.json"
    from replay.bundle import dump_bundle

    path.write_bytes(dump_bundle(big_bundle(50_000)))
    done = dealerroom(tmp_path, "verify", str(path))
    progress = [line for line in done.stderr.splitlines() if line.startswith("verifying")]
    assert progress[-1] == "verifying 50,000 records: 100%" and 5 <= len(progress) <= 11
    quiet = dealerroom(tmp_path, "verify", str(path), "--no-progress")
    assert "verifying" not in quiet.stderr and quiet.stdout == done.stdout
    short = dealerroom(tmp_path, "verify", str(NIMMT))
    assert short.returncode == 0 and short.stderr == ""
