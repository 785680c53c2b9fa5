"""Fair play on the match page and the checker, used as a player or a reviewer would.

Matches come from three places: the golden bundles imported into the live app (a seeded
match and a copy whose step 2 was dealt by hand, signed alike), the demo scenario whose
every deal was chosen by the host, and matches played here with every pick missing, so that
every deal comes from the seed and every pick is the rules' default. Screenshots go to
``test-artifacts/screenshots``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from service.simulate import load_scenario, run_scenario
from tests.conftest import archive_of
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable

    from flask import Flask
    from playwright.sync_api import Page, Route

    from service.application import DealerRoom
    from tests.browser.conftest import Console

    Shooter = Callable[..., Path]

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
BUNDLES = REPO / "fixtures" / "bundles"
SCENARIOS = REPO / "fixtures" / "scenarios"


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def play_with_every_pick_missing(
    room: DealerRoom, game: str, players: list[str], **options: Any
) -> str:
    """A match dealt from the seed in which nobody submits: every pick is the default."""
    match_id = str(room.create_match(game, players, options)["match_id"])
    while not room.get_match(match_id).finished:
        room.open_step(match_id)
        status = room.seal(match_id)
        while status == "decision":
            status = room.apply_decision_default(match_id)
    return match_id


@pytest.fixture(scope="module")
def seeded(live_app: Flask) -> dict[str, str]:
    """Matches of every game that deals, dealt from the seed, every pick the default."""
    room = service(live_app)
    return {
        "six-nimmt": play_with_every_pick_missing(
            room, "six-nimmt", ["ana", "ben", "cai"], start_points=4
        ),
        "picking-nine": play_with_every_pick_missing(room, "picking-nine", ["ana", "ben", "cai"]),
        "grid-adaptation": play_with_every_pick_missing(room, "grid-adaptation", ["ana", "ben"]),
    }


@pytest.fixture(scope="module")
def imported(live_app: Flask) -> str:
    """The golden seeded Picking Nine match, imported (its key is the fixtures' test key)."""
    bundle = load(BUNDLES / "picking-nine-seeded.bundle.json")
    archive_of(service(live_app)).import_bundle(bundle)
    return str(bundle["match_id"])


@pytest.fixture(scope="module")
def host_dealt(live_app: Flask) -> str:
    """The demo Picking Nine match: the host chose all five pools."""
    lines = run_scenario(service(live_app), load_scenario(SCENARIOS / "picking-nine-six-bots.json"))
    match_id = str(next(lines)["match_id"])
    for _ in lines:
        pass
    return match_id


def states(page: Page) -> dict[int, str]:
    """``{seq: "ok" | "bad" | ""}`` of every event row."""
    rows = page.eval_on_selector_all(
        "tr.event",
        """rows => rows.map(r => [Number(r.dataset.seq),
                  r.classList.contains("ok") ? "ok" : r.classList.contains("bad") ? "bad" : ""])""",
    )
    return dict(rows)


def verify(page: Page, *, ok: bool = True) -> None:
    page.click("#verify-log")
    expect(page.locator("#verify-summary")).to_have_class("ok" if ok else "bad", timeout=30_000)


def seqs(records: list[dict[str, Any]], kind: str, **data: Any) -> list[int]:
    return [
        r["seq"]
        for r in records
        if r["type"] == kind and all(r["data"].get(k) == v for k, v in data.items())
    ]


# ---------------------------------------------------------------------------------------
# Deals and defaults recomputed from the seed
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["six-nimmt", "picking-nine", "grid-adaptation"])
def test_every_seeded_deal_and_every_default_is_recomputed_and_turns_green(
    page: Page, live_app: Flask, seeded: dict[str, str], game: str, screenshot: Shooter
) -> None:
    match_id = seeded[game]
    records = service(live_app).records(match_id)
    dealt = seqs(records, "StepOpened", deal_source="seed")
    defaults = seqs(records, "DefaultApplied")
    assert dealt and defaults

    page.goto(f"/matches/{match_id}")
    expect(page.locator("#fairness .seed-status")).to_contain_text(
        "The seed was revealed in record"
    )
    expect(page.locator("tr.event .fair-mark.seed-dealt")).to_have_count(len(dealt))
    verify(page)
    summary = page.locator("#verify-summary")
    expect(summary).to_contain_text(
        "the revealed seed matches the hash committed before the first deal"
    )
    expect(summary).to_contain_text("recomputed from the seed and equal")
    expect(summary).to_contain_text(f"{len(defaults)} default pick")
    assert set(states(page).values()) == {"ok"}
    for seq in dealt:
        title = page.get_attribute(f"tr.event[data-seq='{seq}'] td.check", "title") or ""
        assert "is the one the seed gives (recomputed in your browser)" in title
    title = page.get_attribute(f"tr.event[data-seq='{defaults[0]}'] td.check", "title") or ""
    assert "the rules' default for" in title
    expect(page.locator("#verify-problems")).to_be_hidden()
    if game == "six-nimmt":
        page.locator(f"tr.event[data-seq='{dealt[0]}']").scroll_into_view_if_needed()
        screenshot(page, "fairness-seeded-deals-green", full_page=False)


def test_a_deal_not_from_the_seed_turns_its_record_red_and_says_why(
    page: Page, imported: str, screenshot: Shooter
) -> None:
    # The honest bundle: five pools dealt from the seed, all green.
    page.goto(f"/matches/{imported}")
    verify(page)
    expect(page.locator("#verify-summary")).to_contain_text(
        "5 deals recomputed from the seed and equal"
    )

    # The same match with step 2 dealt by hand and the log signed again with the same key:
    # signatures, the Merkle log and commitments hold; only the deal check fails.
    forged = load(BUNDLES / "picking-nine-seeded.deal-not-from-seed.bundle.json")
    assert forged["match_id"] == imported
    page.route(f"**/api/matches/{imported}/bundle", lambda route: route.fulfill(json=forged))
    verify(page, ok=False)
    summary = page.locator("#verify-summary")
    expect(summary).to_contain_text("1 of 79 records fail; the first bad record is 11")
    expect(summary).to_contain_text("1 deal NOT the one the seed gives")
    assert [seq for seq, state in states(page).items() if state == "bad"] == [11]
    cell = page.locator("tr.event[data-seq='11'] td.check")
    expect(cell).to_have_text("\u2717")
    expect(cell).to_have_attribute(
        "title",
        "step 2 was not dealt from the seed: the seed gives the pool B1, Y1, Y2, B4, R6, B6, "
        "R10, Y10; the log says Y1, G4, B4, R6, G6, G8, G9, R10",
    )

    # Check the reason is on the page in words, not only in a tooltip, with a way to the record.
    problems = page.locator("#verify-problems li")
    expect(problems).to_have_count(1)
    expect(problems.first).to_contain_text("Record 11")
    expect(problems.first).to_contain_text("the deal fails: step 2 was not dealt from the seed")
    problems.first.get_by_role("button", name="Show this record").click()
    expect(page.locator("tr.event[data-seq='11']")).to_be_focused()
    screenshot(page, "fairness-forged-deal", full_page=False)


def test_a_deal_changed_on_the_way_is_red_for_the_deal_and_for_the_log(
    page: Page, live_app: Flask, seeded: dict[str, str]
) -> None:
    match_id = seeded["picking-nine"]
    bundle = archive_of(service(live_app)).export_bundle(match_id)
    (at,) = seqs(bundle["records"], "StepOpened", step=3)
    (later,) = seqs(bundle["records"], "StepOpened", step=4)
    # Swap a card of step 3's pool with one of step 4's: both pools are now not the seed's.
    pools = [bundle["records"][seq]["data"]["deal"]["pool"] for seq in (at, later)]
    pools[0][0], pools[1][0] = pools[1][0], pools[0][0]

    def tampered(route: Route) -> None:
        route.fulfill(json=bundle)

    page.goto(f"/matches/{match_id}")
    page.route(f"**/api/matches/{match_id}/bundle", tampered)
    verify(page, ok=False)
    reason = page.get_attribute(f"tr.event[data-seq='{at}'] td.check", "title") or ""
    assert "step 3 was not dealt from the seed: the seed gives the pool" in reason
    assert "the records do not give the signed root" in reason
    first = page.locator("#verify-problems li").first
    expect(first).to_contain_text(f"Record {at}")
    expect(first).to_contain_text("the signed log fails")
    expect(first).to_contain_text("the deal fails: step 3 was not dealt from the seed")


# ---------------------------------------------------------------------------------------
# Host-chosen deals, reveals, the host's key
# ---------------------------------------------------------------------------------------


def test_host_chosen_deals_are_labelled_loudly_in_the_panel_the_rows_and_the_steps(
    page: Page, host_dealt: str, screenshot: Shooter
) -> None:
    page.goto(f"/matches/{host_dealt}")
    warning = page.locator("#fairness .host-dealt-warning")
    expect(warning).to_contain_text("Dealt by the host, not from the seed: steps 1 to 5.")
    expect(warning).to_contain_text("Nothing on this page can show they are random")
    expect(page.locator("tr.event.host-dealt")).to_have_count(5)
    expect(page.locator("tr.event.host-dealt .fair-mark.host-dealt")).to_have_count(5)
    expect(page.locator("tr.group-head .fair-mark.host-dealt")).to_have_count(5)
    expect(page.locator("tr.event .fair-mark.seed-dealt")).to_have_count(0)
    verify(page)
    expect(page.locator("#verify-summary")).to_contain_text(
        "5 deals chosen by the host, not from the seed"
    )
    seq = page.locator("tr.event.host-dealt").first.get_attribute("data-seq")
    title = page.get_attribute(f"tr.event[data-seq='{seq}'] td.check", "title") or ""
    assert "dealt by the host, not from the seed: nothing shows this deal is random" in title
    page.locator("#fairness").scroll_into_view_if_needed()
    screenshot(page, "fairness-host-dealt", full_page=False)

    # Check the panel at 1920 px: it keeps a readable measure and the page does not widen.
    page.set_viewport_size({"width": 1920, "height": 1080})
    box = page.locator("#fairness").bounding_box()
    assert box is not None and box["width"] <= 1000
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    page.locator("#fairness").scroll_into_view_if_needed()
    screenshot(page, "fairness-host-dealt-1920", full_page=False)


def test_a_reveal_link_opens_the_checker_with_the_reveal_and_it_matches(
    page: Page, live_app: Flask, screenshot: Shooter
) -> None:
    lines = run_scenario(service(live_app), load_scenario(SCENARIOS / "vote-basic.json"))
    match_id = str(next(lines)["match_id"])
    for _ in lines:
        pass
    reveals = [r for r in service(live_app).records(match_id) if r["type"] == "SubmissionRevealed"]
    assert reveals
    page.goto(f"/matches/{match_id}")
    links = page.locator("tr.event a.check-this")
    expect(links).to_have_count(len(reveals))
    first = reveals[0]
    link = page.locator(f"tr.event[data-seq='{first['seq']}'] a.check-this")
    expect(link).to_have_accessible_name(
        f"Check {first['data']['player']}'s reveal in step {first['data']['step']} yourself"
    )
    link.click()
    page.wait_for_url("**/check#*")
    expect(page.locator("#c-result")).to_have_class("ok")
    expect(page.locator("#c-result")).to_have_text(
        "match: this payload and salt open the commitment"
    )
    expect(page.locator("#c-computed")).to_have_text(first["data"]["commitment"])
    expect(page.locator("#c-source")).to_contain_text(f"record {first['seq']} of match {match_id}")
    assert json.loads(page.input_value("#c-payload")) == first["data"]["payload"]
    screenshot(page, "fairness-check-this-reveal", full_page=False)


def test_the_hosts_key_is_shown_with_how_to_pin_it_and_a_pinned_key_is_used(
    page: Page, live_app: Flask, seeded: dict[str, str]
) -> None:
    key = page.request.get("/api/key").json()["public_key"]
    page.goto(f"/matches/{seeded['grid-adaptation']}")
    expect(page.locator("#host-key")).to_have_text(key)
    page.locator("#fairness details.pin summary").click()
    expect(page.locator("#fairness details.pin")).to_contain_text(
        "dealerroom verify BUNDLE --trusted-key 'KEY'"
    )

    # Pin another key: the log is not signed by it, every record says so.
    other = load(BUNDLES / "vote-basic.bundle.json")["public_key"]
    page.fill("#verify-key", other)
    verify(page, ok=False)
    expect(page.locator("#verify-summary")).to_contain_text("not the pinned key")
    expect(page.locator("#verify-problems li").first).to_contain_text("the signed log fails")

    # Pin the right key: all green, signed by the pinned key.
    page.fill("#verify-key", key)
    verify(page)


# ---------------------------------------------------------------------------------------
# The receipt check on /check: the latest checkpoint fetched, the revealed pick compared
# ---------------------------------------------------------------------------------------


def test_a_receipt_is_checked_against_the_latest_checkpoint_and_the_pick_revealed_later(
    page: Page, live_app: Flask, tmp_path: Path, screenshot: Shooter
) -> None:
    room = service(live_app)
    match_id = str(room.create_match("vote", ["ana", "ben", "cai"], {})["match_id"])
    room.open_step(match_id)
    replaced = room.submit(match_id, "ana", {"vote": "ben"})["receipt"]
    kept = room.submit(match_id, "ana", {"vote": "cai"})["receipt"]
    room.submit(match_id, "ben", {"vote": "cai"})
    room.seal(match_id)
    size = len(room.records(match_id))
    (tmp_path / "kept.json").write_text(json.dumps(kept))
    (tmp_path / "replaced.json").write_text(json.dumps(replaced))

    page.goto("/check")
    page.wait_for_selector("body[data-checker-ready]", state="attached")
    page.set_input_files("#r-file", str(tmp_path / "kept.json"))
    expect(page.locator("#r-checks li[data-check='later']")).to_have_class("pass")
    expect(page.locator("#r-summary")).to_contain_text(f"still in the log at size {size}")
    expect(page.locator("#r-summary")).to_contain_text("fetched just now")
    pick = page.locator("#r-pick")
    expect(pick).to_have_class("ok")
    expect(pick).to_contain_text("opens this receipt's commitment: it is the pick you committed to")
    expect(pick).to_contain_text("vote cai")
    page.locator("#receipt-check").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('receipt-check').scrollIntoView()")
    screenshot(page, "fairness-receipt-latest-checkpoint", full_page=False)

    page.set_input_files("#r-file", str(tmp_path / "replaced.json"))
    expect(page.locator("#r-checks li[data-check='later']")).to_have_class("pass")
    expect(pick).to_contain_text("ana replaced this pick in record")
    expect(pick).not_to_have_class("bad")


def test_a_receipt_of_another_site_is_not_fetched_unless_asked_and_a_refusal_is_explained(
    page: Page, console: Console, tmp_path: Path
) -> None:
    receipt = load(BUNDLES / "vote-basic.bundle.json")["receipts"][0]
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    page.goto("/check")
    page.wait_for_selector("body[data-checker-ready]", state="attached")
    page.set_input_files("#r-file", str(tmp_path / "receipt.json"))
    expect(page.locator("#r-summary")).to_have_class("ok")
    expect(page.locator("#r-checks li")).to_have_count(5)
    expect(page.locator("#r-site")).to_be_hidden()

    # Ask this site anyway: it does not hold that match, and the page says what to do.
    console.allow("status of 404")
    page.get_by_role("button", name="Check it against this site's latest checkpoint").click()
    site = page.locator("#r-site")
    expect(site).to_have_class(re.compile(r"\bbad\b"))
    expect(site).to_contain_text(
        f"This site could not give the latest checkpoint of match {receipt['match_id']}"
    )
    expect(site).to_contain_text("Drop a later checkpoint file instead.")
    expect(page.locator("#r-checks li")).to_have_count(5)


# ---------------------------------------------------------------------------------------
# On a phone
# ---------------------------------------------------------------------------------------

BOXES = """els => els.filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return {name: e.textContent.trim().slice(0, 30), height: r.height, right: r.right};
})"""


def test_on_a_phone_the_fair_play_panel_fits_and_its_controls_are_big_enough(
    pages: Callable[..., Page], live_app: Flask, imported: str, screenshot: Shooter
) -> None:
    page = pages(phone=True)
    forged = load(BUNDLES / "picking-nine-seeded.deal-not-from-seed.bundle.json")
    page.route(f"**/api/matches/{imported}/bundle", lambda route: route.fulfill(json=forged))
    page.goto(f"/matches/{imported}")
    verify(page, ok=False)
    page.locator("#fairness details.pin summary").click()
    panel = page.locator("#fairness")
    width = page.evaluate("document.documentElement.clientWidth")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate(
        "[...document.querySelectorAll('#fairness, #fairness *, #verify-problems *')]"
        ".every(e => e.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5)"
    )
    controls = page.eval_on_selector_all(
        "#fairness summary, #fairness button, #fairness input, #verify-problems button",
        BOXES,
    )
    controls += page.eval_on_selector_all("a.check-this", BOXES)
    assert len(controls) > 30, "the panel's controls and a link per reveal"
    small = [c for c in controls if c["height"] < 44]
    assert small == [], small
    panel.scroll_into_view_if_needed()
    screenshot(page, "fairness-phone", full_page=False)


def test_a_bundle_dropped_on_the_checker_has_its_deals_recomputed_too(page: Page) -> None:
    page.goto("/check")
    page.wait_for_selector("body[data-checker-ready]", state="attached")
    page.set_input_files(
        "#b-file", str(BUNDLES / "six-nimmt-seeded.deal-not-from-seed.bundle.json")
    )
    expect(page.locator("#b-summary")).to_have_class("bad")
    expect(page.locator("#b-summary")).to_contain_text("the first bad record is 107")
    expect(page.locator("#b-table tr.event[data-seq='107'] td.check")).to_have_text("\u2717")
    problem = page.locator("#b-problems li").first
    expect(problem).to_contain_text("Record 107 (a step opened)")
    expect(problem).to_contain_text("the deal fails: step 11 was not dealt from the seed")
