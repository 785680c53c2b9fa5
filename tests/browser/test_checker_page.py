"""The checker page (/check) and the match page's verify button, used as a person would.

Files go in through the file inputs (``set_input_files``) and through a real drop event; the
results are read off the page. Screenshots go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from domain.signed_note import Signer
from replay.receipt import extend_receipt
from replay.verify import verify_bundle
from service.simulate import load_scenario, run_scenario
from tests.conftest import archive_of
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable

    from flask import Flask
    from playwright.sync_api import Page, Route

    from tests.browser.conftest import Console

    Shooter = Callable[..., Path]

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
BUNDLES = REPO / "fixtures" / "bundles"
VECTOR = json.loads((REPO / "docs" / "protocol-vectors.json").read_text())["commitments"][0]
SCOPE = (
    "Your browser checks the signatures, the Merkle log, every commitment, the seed, every deal "
    "from the seed and every default"
)
TEST_SIGNER = Signer("dealerroom.example", bytes(range(32)))


@pytest.fixture
def checker(page: Page) -> Page:
    page.goto("/check")
    page.wait_for_selector("body[data-checker-ready]", state="attached")
    return page


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value))
    return path


def drop_file(page: Page, zone: str, name: str, text: str) -> None:
    """Drop a file on ``zone`` with a real ``drop`` event carrying a DataTransfer."""
    transfer = page.evaluate_handle(
        """([name, text]) => { const dt = new DataTransfer();
             dt.items.add(new File([text], name, {type: "application/json"})); return dt; }""",
        [name, text],
    )
    page.dispatch_event(zone, "dragover", {"dataTransfer": transfer})
    page.dispatch_event(zone, "drop", {"dataTransfer": transfer})


def row_states(page: Page, scope: str = "") -> list[tuple[int, str]]:
    """``(data-seq, "ok" | "bad" | "")`` of every event row."""
    rows = page.eval_on_selector_all(
        f"{scope} tr.event",
        """rows => rows.map(r => [Number(r.dataset.seq),
                  r.classList.contains("ok") ? "ok" : r.classList.contains("bad") ? "bad" : ""])""",
    )
    return [(seq, state) for seq, state in rows]


# ---------------------------------------------------------------------------------------
# The checker page
# ---------------------------------------------------------------------------------------


def test_the_checker_page_says_what_the_browser_checks_and_what_it_does_not(
    page: Page, live_server: str
) -> None:
    response = page.goto("/check")
    assert response is not None and response.status == 200
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    expect(page.locator(".scope")).to_contain_text(SCOPE)
    expect(page.locator(".scope")).to_contain_text("dealerroom verify")
    expect(page.locator("nav a[href='/check']")).to_be_visible()


def test_a_commitment_matches_its_opening_and_not_another(
    checker: Page, screenshot: Shooter
) -> None:
    # Check the first protocol vector: it matches, and the computed commitment is shown.
    checker.fill("#c-match", VECTOR["match_id"])
    checker.fill("#c-step", str(VECTOR["step"]))
    checker.fill("#c-player", VECTOR["player"])
    checker.fill("#c-payload", json.dumps(VECTOR["payload"], indent=1))
    checker.fill("#c-salt", VECTOR["salt"])
    checker.fill("#c-expected", VECTOR["commitment"])
    checker.click("#c-check")
    expect(checker.locator("#c-result")).to_have_class("ok")
    expect(checker.locator("#c-result")).to_have_text(
        "match: this payload and salt open the commitment"
    )
    expect(checker.locator("#c-computed")).to_have_text(VECTOR["commitment"])
    screenshot(checker, "checker-commitment-match")

    # Check another pick with the same salt: no match.
    checker.fill("#c-payload", '{"card": 12}')
    checker.click("#c-check")
    expect(checker.locator("#c-result")).to_have_class("bad")
    expect(checker.locator("#c-result")).to_contain_text("no match")
    expect(checker.locator("#c-computed")).not_to_have_text(VECTOR["commitment"])

    # Check bad input: the reason, not a crash.
    checker.fill("#c-payload", "{card: 12")
    checker.click("#c-check")
    expect(checker.locator("#c-result")).to_contain_text("cannot compute: the payload is not JSON")
    checker.fill("#c-payload", "{}")
    checker.fill("#c-salt", "abc")
    checker.click("#c-check")
    expect(checker.locator("#c-result")).to_contain_text("a salt is 64 lowercase hex digits")


def test_a_tampered_bundle_dropped_on_the_page_turns_its_rows_red(
    checker: Page, screenshot: Shooter
) -> None:
    path = BUNDLES / "six-nimmt-even-odd.changed-reveal.bundle.json"
    bundle = json.loads(path.read_text())
    first_bad = verify_bundle(bundle).check("commitments").first_bad_seq
    assert first_bad == 8

    checker.set_input_files("#b-file", str(path))
    expect(checker.locator("#b-summary")).to_have_class("bad")
    expect(checker.locator("#b-summary")).to_contain_text(f"the first bad record is {first_bad}")
    expect(checker.locator("#b-summary")).to_contain_text(SCOPE)
    states = row_states(checker, "#b-table")
    assert [seq for seq, _ in states] == list(range(len(bundle["records"])))
    assert [seq for seq, state in states if state == "bad"] == [first_bad]
    assert all(state == "ok" for seq, state in states if seq != first_bad)
    cell = checker.locator(f"#b-table tr.event[data-seq='{first_bad}'] td.check")
    expect(cell).to_have_text("\u2717")
    expect(cell).to_have_attribute(
        "title", "the reveal of ben in step 1 does not open their commitment (seq 4)"
    )
    checker.locator("#b-summary").scroll_into_view_if_needed()
    screenshot(checker, "checker-bundle-tampered", full_page=False)


def test_an_honest_bundle_dropped_on_the_page_is_all_green(checker: Page) -> None:
    path = BUNDLES / "vote-basic.bundle.json"
    drop_file(checker, "#b-drop", path.name, path.read_text())
    expect(checker.locator("#b-summary")).to_have_class("ok")
    expect(checker.locator("#b-summary")).to_contain_text("All 15 records check out")
    assert row_states(checker, "#b-table") == [(i, "ok") for i in range(15)]
    expect(checker.locator("#b-table tr.event td.check").first).to_have_text("\u2713")


def test_a_pinned_key_exposes_a_log_re_signed_with_another_key(checker: Page) -> None:
    path = BUNDLES / "vote-basic.rewritten-other-key.bundle.json"
    pinned = json.loads((BUNDLES / "vote-basic.bundle.json").read_text())["public_key"]
    checker.fill("#b-key", pinned)
    checker.set_input_files("#b-file", str(path))
    expect(checker.locator("#b-summary")).to_have_class("bad")
    expect(checker.locator("#b-summary")).to_contain_text("not the pinned key")
    assert {state for _, state in row_states(checker, "#b-table")} == {"bad"}


def test_a_file_that_is_not_a_bundle_is_explained(checker: Page, tmp_path: Path) -> None:
    checker.set_input_files("#b-file", str(write_json(tmp_path / "x.json", {"format": "nope"})))
    summary = checker.locator("#b-summary")
    expect(summary).to_contain_text('Cannot check this file: format is "nope"')
    (tmp_path / "broken.json").write_text("{not json")
    checker.set_input_files("#b-file", str(tmp_path / "broken.json"))
    expect(checker.locator("#b-summary")).to_contain_text("broken.json is not a JSON bundle")
    expect(checker.locator("#b-table")).to_be_hidden()


def test_a_receipt_file_is_checked_step_by_step(
    checker: Page, tmp_path: Path, screenshot: Shooter
) -> None:
    bundle = json.loads((BUNDLES / "vote-basic.bundle.json").read_text())
    receipt = bundle["receipts"][0]
    later = extend_receipt(bundle["records"], receipt, TEST_SIGNER)
    names = ["shape", "key", "checkpoint", "leaf index", "inclusion"]

    # Check the receipt with its own key, then with a later checkpoint (dropped).
    checker.set_input_files("#r-file", str(write_json(tmp_path / "receipt.json", receipt)))
    expect(checker.locator("#r-summary")).to_have_class("ok")
    expect(checker.locator("#r-summary")).to_contain_text("ana's submission in step 1 is record 3")
    expect(checker.locator("#r-checks li.pass")).to_have_count(5)
    assert checker.eval_on_selector_all("#r-checks li", "l => l.map(i => i.dataset.check)") == names
    drop_file(checker, "#r-later-drop", "later.json", json.dumps(later))
    expect(checker.locator("#r-checks li.pass")).to_have_count(6)
    expect(checker.locator("#r-summary")).to_contain_text("still in the log at size 15")
    screenshot(checker, "checker-receipt")

    # Check it against a pinned key that did not sign it: the key check fails, the rest wait.
    other = json.loads((BUNDLES / "vote-basic.rewritten-other-key.bundle.json").read_text())
    checker.fill("#r-key", other["public_key"])
    checker.dispatch_event("#r-key", "change")
    expect(checker.locator("#r-summary")).to_have_class("bad")
    expect(checker.locator("#r-summary")).to_contain_text("key fails")
    expect(checker.locator("#r-checks li[data-check='key']")).to_have_class("fail")
    expect(checker.locator("#r-checks li.skipped")).to_have_count(4)


# ---------------------------------------------------------------------------------------
# The match page: the verify button on a real match, its bundle honest and tampered
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vote_match(live_app: Flask) -> str:
    scenario = load_scenario(REPO / "fixtures" / "scenarios" / "vote-basic.json")
    lines = run_scenario(service(live_app), scenario)
    match_id = next(lines)["match_id"]
    for _ in lines:
        pass
    return str(match_id)


def test_the_match_page_verifies_its_log_and_shows_a_tampered_one_red(
    page: Page, live_app: Flask, vote_match: str, screenshot: Shooter
) -> None:
    page.goto(f"/matches/{vote_match}")
    rows = page.locator("tr.event")
    count = rows.count()
    assert count == len(archive_of(service(live_app)).export_bundle(vote_match)["records"])

    # Check the log as served: every event green.
    page.click("#verify-log")
    expect(page.locator("#verify-summary")).to_have_class("ok")
    expect(page.locator("#verify-summary")).to_contain_text(SCOPE)
    expect(page.locator("#verify-summary")).to_contain_text("dealerroom verify also replays")
    expect(page.locator("tr.event.ok")).to_have_count(count)
    expect(page.locator("tr.event td.check").first).to_have_text("\u2713")

    # Check a log whose first reveal was changed on the way: red from there on.
    bundle = archive_of(service(live_app)).export_bundle(vote_match)
    at = next(r["seq"] for r in bundle["records"] if r["type"] == "SubmissionRevealed")
    bundle["records"][at]["data"]["payload"] = {"vote": "cai"}
    merkle = verify_bundle(bundle).check("merkle")
    first = merkle.seq_range[0] if merkle.seq_range else merkle.first_bad_seq

    def tampered(route: Route) -> None:
        route.fulfill(json=bundle)

    page.route(f"**/api/matches/{vote_match}/bundle", tampered)
    page.click("#verify-log")
    expect(page.locator("#verify-summary")).to_have_class("bad")
    expect(page.locator("#verify-summary")).to_contain_text(f"the first bad record is {first}")
    states = row_states(page)
    assert [seq for seq, state in states if state == "ok"] == list(range(first))
    assert [seq for seq, state in states if state == "bad"] == list(range(first, count))
    reason = page.get_attribute(f"tr.event[data-seq='{at}'] td.check", "title") or ""
    assert "does not open their commitment" in reason
    page.locator(f"tr.event[data-seq='{at}']").scroll_into_view_if_needed()
    screenshot(page, "timeline-tampered")


def test_the_match_page_reports_a_bundle_it_cannot_get(
    page: Page, console: Console, vote_match: str
) -> None:
    console.allow("status of 503")
    page.goto(f"/matches/{vote_match}")
    page.route(
        f"**/api/matches/{vote_match}/bundle",
        lambda route: route.fulfill(status=503, json={"error": "the store is down"}),
    )
    page.click("#verify-log")
    expect(page.locator("#verify-summary")).to_have_class("bad")
    expect(page.locator("#verify-summary")).to_have_text(
        "Could not check the log: the server did not send the log: the store is down"
    )
