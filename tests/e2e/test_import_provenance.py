"""Provenance of an imported log: pinned, it is the host's; unpinned, nobody vouched for it.

``dealerroom import`` needs the host's key (``--trusted-key``) or an explicit ``--unpinned``;
the stored import remembers which, and the match page says what was shown: a pinned import
is that host's log, an unpinned one is unchanged since a key nobody pinned signed it, never a
named host's word.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from replay.bundle import load_bundle
from tests.conftest import archive_of
from tests.e2e.test_cli import dealerroom
from tests.unit.test_replay_fixtures import BUNDLES, TEST_KEY
from web.extension import service

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask

VOTE = BUNDLES / "vote-basic.bundle.json"
KEY = TEST_KEY.verifier().vkey()


def test_import_without_a_pinned_key_is_refused_unless_unpinned_is_explicit(
    tmp_path: Path,
) -> None:
    done = dealerroom(tmp_path, "import", str(VOTE))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line == (
        "dealerroom: error: pin the host's key with --trusted-key KEY (obtained from the host "
        "out of band, e.g. its /api/key), or pass --unpinned to import a log whose key nobody "
        "vouches for"
    )
    assert dealerroom(tmp_path, "matches").stdout.strip() == "no matches"

    both = dealerroom(tmp_path, "import", str(VOTE), "--unpinned", "--trusted-key", KEY)
    assert both.returncode == 2 and "not both" in both.stderr

    done = dealerroom(tmp_path, "import", str(VOTE), "--unpinned")
    assert done.returncode == 0, done.stderr
    first, note = done.stdout.splitlines()
    assert first.endswith("naming dealerroom.example (key not pinned): every check passed")
    assert note == (
        f"note: the log is unchanged since it was signed by {KEY}, but nobody pinned that key, "
        "so nothing shows it is dealerroom.example's"
    )


def test_a_pinned_import_names_its_host(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "import", str(VOTE), "--trusted-key", KEY, "--json")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)["verdict"]
    assert verdict["key"] == {
        "public_key": KEY, "pinned": True, "note": verdict["key"]["note"],
    }  # fmt: skip
    done = dealerroom(tmp_path / "b", "import", str(VOTE), "--trusted-key", KEY)
    (line,) = done.stdout.splitlines()  # no note: the key is pinned
    assert line.endswith("from dealerroom.example (key pinned): every check passed")


def page_text(app: Flask, match_id: str) -> str:
    html = app.test_client().get(f"/matches/{match_id}").get_data(as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_the_page_of_an_unpinned_import_never_says_a_host_vouches_for_it(app: Flask) -> None:
    bundle = load_bundle(VOTE.read_bytes())
    with app.app_context():
        archive_of(service(app)).import_bundle(bundle)  # no key pinned
    text = page_text(app, bundle["match_id"])
    assert (
        "Imported: a read-only copy of a log that names dealerroom.example as its origin. It was "
        "verified when it was imported and is unchanged since it was signed by the key "
        f"{KEY}, but nobody pinned that key, so nothing shows whose key it is, nor that this "
        "host signed it."
    ) in text
    assert "Imported from" not in text and "that host's log" not in text


def test_the_page_of_a_pinned_import_names_the_host(app: Flask) -> None:
    bundle = load_bundle(VOTE.read_bytes())
    with app.app_context():
        archive_of(service(app)).import_bundle(bundle, trusted_key=KEY)
    text = page_text(app, bundle["match_id"])
    assert (
        "Imported from dealerroom.example: a read-only copy of that host's log, verified when it "
        f"was imported against the key {KEY}, which the importer pinned as that host's."
    ) in text
