"""`dealerroom receipt check` and `dealerroom checkpoint`, as a player and a host run them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from service.application import DealerRoom
from service.config import Settings
from tests.e2e.test_cli import dealerroom

if TYPE_CHECKING:
    from pathlib import Path


def _receipt(tmp_path: Path) -> tuple[str, dict]:
    app = DealerRoom(Settings.load({"DEALERROOM_INSTANCE": str(tmp_path / "instance")}))
    mid = app.create_match("vote", ["ana", "ben"])["match_id"]
    app.open_step(mid)
    receipt = app.submit(mid, "ana", {"vote": "ben"})["receipt"]
    app.submit(mid, "ben", {"vote": "ben"})
    app.seal(mid)
    app.close()
    return mid, receipt


def test_a_receipt_checks_offline_and_against_a_later_checkpoint(tmp_path: Path) -> None:
    mid, receipt = _receipt(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps(receipt))
    done = dealerroom(tmp_path, "receipt", "check", str(tmp_path / "r.json"))
    assert done.returncode == 0 and done.stdout.startswith("ok: ana's commitment"), done.stderr
    later = dealerroom(tmp_path, "checkpoint", mid, "--from", str(receipt["tree_size"]))
    assert later.returncode == 0, later.stderr
    (tmp_path / "later.json").write_text(later.stdout)
    # Exactly the later checkpoint object of protocol-bundles.md section 2; the key on stderr
    assert list(json.loads(later.stdout)) == [
        "format", "match_id", "old_size", "checkpoint", "consistency_proof",
    ]  # fmt: skip
    key = later.stderr.split()[1]
    assert key == json.loads(dealerroom(tmp_path, "checkpoint", mid).stdout)["public_key"]
    done = dealerroom(
        tmp_path,
        "receipt",
        "check",
        str(tmp_path / "r.json"),
        "--against",
        str(tmp_path / "later.json"),
        "--key",
        key,
    )
    assert done.returncode == 0 and "extends it" in done.stdout, done.stderr


def test_receipt_check_reads_the_later_checkpoint_in_every_form_written_so_far(
    tmp_path: Path,
) -> None:
    mid, receipt = _receipt(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps(receipt))
    later = json.loads(dealerroom(tmp_path, "checkpoint", mid, "--from", "4").stdout)
    forms = {
        "canonical": later,
        "bare": {k: later[k] for k in ("checkpoint", "consistency_proof")},
        "with its key": {**later, "public_key": receipt["public_key"]},
    }
    for name, form in forms.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(form))
        receipt_file = str(tmp_path / "r.json")
        done = dealerroom(tmp_path, "receipt", "check", receipt_file, "--against", str(path))
        assert done.returncode == 0 and "extends it" in done.stdout, (name, done.stderr)
    bad = dealerroom(tmp_path, "checkpoint", mid, "--from", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_a_tampered_receipt_or_a_foreign_key_exits_2_with_one_line(tmp_path: Path) -> None:
    _, receipt = _receipt(tmp_path)
    receipt["record"]["data"]["commitment"] = "0" * 64
    (tmp_path / "r.json").write_text(json.dumps(receipt))
    done = dealerroom(tmp_path, "receipt", "check", str(tmp_path / "r.json"))
    assert done.returncode == 2 and "not in the checkpoint's tree" in done.stderr
    assert done.stderr.count("\n") == 1
    _, receipt = _receipt(tmp_path / "other")
    (tmp_path / "r2.json").write_text(json.dumps(receipt))
    foreign = "dealerroom.localhost+00000000+AWa4AoknzQ0T85r40teP7SZ3jvX9eXQj5gWB7B3wOkYB"
    done = dealerroom(tmp_path, "receipt", "check", str(tmp_path / "r2.json"), "--key", foreign)
    assert done.returncode == 2 and "does not verify" in done.stderr


def test_the_api_serves_the_same_later_checkpoint_object(tmp_path: Path) -> None:
    from web import create_app
    from web.extension import service

    app = create_app({"DEALERROOM_INSTANCE": str(tmp_path / "instance"), "TESTING": True})
    room = service(app)
    mid = room.create_match("vote", ["ana", "ben"])["match_id"]
    room.open_step(mid)
    later = app.test_client().get(f"/api/matches/{mid}/checkpoint?from=1").get_json()
    assert list(later) == sorted(
        ["format", "match_id", "old_size", "checkpoint", "consistency_proof"]
    )  # jsonify sorts the members
    assert later["format"] == "dealerroom/consistency/v1" and later["old_size"] == 1
    assert later == room.consistency(mid, 1)
