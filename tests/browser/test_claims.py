"""Seats claimed by their players, in Debian's chromium: each player in a browser of their own.

An invite link claims its seat once and makes the player's Ed25519 key in the browser; the
public log shows the claim with that key and every pick carries the player's signature. The
backup file restores a seat in another browser; a new invite takes the seat from its old
holder; a used invite says so in plain words; an identical re-send is a success, and an
amendment says it replaced the earlier pick. Screenshots at 1280x900 and 390x844 go to
``test-artifacts/screenshots``.
"""

from __future__ import annotations

import base64
import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from playwright.sync_api import expect

from domain.submission_signing import submission_message
from tests.browser.test_play_match import create_from_console, open_step, seal_pick

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page, Route

    from tests.browser.conftest import Console

    Shooter = Callable[[Page, str], Path]
    NewPage = Callable[[], Page]

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}


def shoot(page: Page, screenshot: Shooter, name: str) -> None:
    """Screenshots of the page as a laptop and a phone show it (then back to the laptop)."""
    for label, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"{name}-{label}")
    page.set_viewport_size({"width": 1280, "height": 900})


def match_of(link: str) -> str:
    return link.split("/matches/")[1].split("/", maxsplit=1)[0]


def room_url(link: str) -> str:
    """The dealer room's address without its private fragment."""
    return link.split("#", maxsplit=1)[0]


def records(page: Page, mid: str) -> list[dict[str, Any]]:
    return page.evaluate("async (u) => (await fetch(u)).json()", f"/api/matches/{mid}/records")


def kept_seat(page: Page, mid: str, player: str) -> dict[str, Any] | None:
    """The seat this browser keeps (credential and key), as the dealer room stored it."""
    text = page.evaluate("(k) => localStorage.getItem(k)", f"dealerroom:seat:{mid}:{player}")
    return json.loads(text) if text else None


def claim(pages: NewPage, link: str) -> Page:
    """Open an invite link in a browser of its own and wait until the seat is held."""
    room = pages()
    room.set_viewport_size({"width": 1280, "height": 900})
    room.goto(link)
    expect(room.locator("#seat-panel")).to_be_visible()
    expect(room.locator("#seat-state")).to_contain_text("signed with a key made in this browser")
    return room


def assert_signed_by(record: dict[str, Any], mid: str, public_key: str) -> None:
    """The submission's signature verifies with the player's key, as the verifier checks it."""
    data = record["data"]
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key))
    message = submission_message(mid, data["step"], data["player"], data["commitment"])
    key.verify(base64.b64decode(data["signature"]), message)  # raises if it does not verify


def test_players_claim_their_seats_with_keys_made_in_their_browsers_and_sign_every_pick(
    pages: NewPage, live_server: str, screenshot: Shooter
) -> None:
    # 1. The host creates a vote: one invite link per player, never a token.
    host = pages()
    host.set_viewport_size({"width": 1280, "height": 900})
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben, cai")
    assert all("#invite=" in url for url in links.values())
    expect(host.locator("#created")).to_contain_text("works once")
    expect(host.get_by_role("button", name="Copy ana's invite link")).to_be_visible()
    expect(host.get_by_role("button", name="Copy all invite links")).to_be_visible()
    shoot(host, screenshot, "claims-new-match")
    mid = match_of(host_link)

    # 2. The host console shows every seat unclaimed.
    host.goto(host_link)
    seats = host.locator("#submitters")
    expect(seats.locator("tr[data-player=ana] .seat")).to_have_text("not claimed yet")
    open_step(host)

    # 3. Each player opens their invite in a browser of their own: the seat is claimed with a
    #    key made there, the invite leaves the address bar, the backup is offered.
    rooms = {}
    for player, vote in {"ana": "ben", "ben": "cai", "cai": "ben"}.items():
        room = claim(pages, links[player])
        assert "#" not in room.url and "invite" not in room.url
        expect(room.get_by_role("button", name="Download my seat backup")).to_be_visible()
        seal_pick(room, vote)
        rooms[player] = room
    shoot(rooms["ana"], screenshot, "claims-dealer-room")

    # 4. The public log holds each claim with the key the player's browser kept, and every
    #    pick carries a signature that key verifies.
    log = records(host, mid)
    claims = {r["data"]["player"]: r["data"] for r in log if r["type"] == "SeatClaimed"}
    assert set(claims) == {"ana", "ben", "cai"}
    for player, room in rooms.items():
        seat = kept_seat(room, mid, player)
        assert seat is not None and seat["private_key_jwk"]["crv"] == "Ed25519"
        assert claims[player]["public_key"] == seat["public_key"]
        assert claims[player]["actor"] == player
        assert "token" not in json.dumps(claims[player])
    submissions = [r for r in log if r["type"] == "SubmissionCommitted"]
    assert len(submissions) == 3
    for record in submissions:
        assert_signed_by(record, mid, claims[record["data"]["player"]]["public_key"])

    # 5. The host sees each seat claimed with its key.
    expect(seats.locator("tr[data-player=ana] .seat")).to_have_text("claimed, signs with its key")
    shoot(host, screenshot, "claims-host-console")


def test_a_used_invite_says_the_seat_was_claimed_and_the_claimer_gets_back_in(
    pages: NewPage, live_server: str, console: Console, screenshot: Shooter
) -> None:
    host = pages()
    _, links = create_from_console(host, live_server, "vote", "ana, ben")
    ana = claim(pages, links["ana"])

    # Someone else opens the same invite: a plain sentence, no raw error, no seat.
    console.allow("409 (CONFLICT)")
    other = pages()
    other.goto(links["ana"])
    message = other.locator("#sign-in-message")
    expect(message).to_have_text(
        "This seat was already claimed. If it was not you, ask the host for a new invite."
    )
    assert "#" not in other.url
    expect(other.locator("#seat-panel")).to_have_count(0)
    expect(other.get_by_label("Backup file of ana's seat")).to_be_visible()
    shoot(other, screenshot, "claims-invite-used")

    # The player who claimed it opens the link again (or the room's plain address): back in.
    ana.goto(links["ana"])
    expect(ana.locator("#seat-panel")).to_be_visible()
    ana.goto(room_url(links["ana"]))
    expect(ana.locator("#seat-panel")).to_be_visible()

    # A wrong invite is refused in words too.
    console.allow("403 (FORBIDDEN)")
    stranger = pages()
    stranger.goto(room_url(links["ben"]) + "#invite=not-the-code")
    expect(stranger.locator("#sign-in-message")).to_contain_text("ask the host for a new invite")


def test_the_backup_file_restores_the_seat_in_another_browser(
    pages: NewPage, live_server: str, tmp_path: Path, console: Console, screenshot: Shooter
) -> None:
    host = pages()
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben")
    mid = match_of(host_link)
    host.goto(host_link)
    open_step(host)
    ana = claim(pages, links["ana"])
    kept = kept_seat(ana, mid, "ana")
    assert kept is not None

    # 1. The backup file holds the match, the player, the credential and the key pair.
    with ana.expect_download() as saving:
        ana.get_by_role("button", name="Download my seat backup").click()
    backup_path = tmp_path / saving.value.suggested_filename
    saving.value.save_as(backup_path)
    assert saving.value.suggested_filename == f"dealerroom-seat-{mid[:8]}-ana.json"
    backup = json.loads(backup_path.read_text())
    assert backup["match_id"] == mid and backup["player"] == "ana"
    assert backup["token"] == kept["token"]
    assert backup["private_key_jwk"] == kept["private_key_jwk"]
    assert backup["public_key"] == kept["public_key"]
    expect(ana.locator("#backup-result")).to_contain_text("Keep the file private")
    expect(ana.get_by_role("button", name="Download my seat backup")).to_be_hidden()

    # 2. A fresh browser without the link: the room asks for the link or the backup file.
    laptop = pages()
    laptop.set_viewport_size({"width": 1280, "height": 900})
    laptop.goto(room_url(links["ana"]))
    asking = laptop.locator("#sign-in-message")
    expect(asking).to_contain_text("restore your seat from its backup file")
    shoot(laptop, screenshot, "claims-restore")

    # 3. Another player's backup is refused in words.
    wrong = tmp_path / "ben.json"
    wrong.write_text(json.dumps({**backup, "player": "ben"}))
    laptop.get_by_label("Backup file of ana's seat").set_input_files(str(wrong))
    expect(laptop.locator("#restore-result")).to_contain_text("not ana's seat here")

    # 4. The right file restores the seat with its key; a pick from here is signed with it.
    laptop.get_by_label("Backup file of ana's seat").set_input_files(str(backup_path))
    expect(laptop.locator("#seat-state")).to_contain_text("signed with a key made in this browser")
    expect(laptop.locator("#backup-banner")).to_be_hidden()  # restored from a backup: it exists
    seal_pick(laptop, "ben")
    signed = [r for r in records(laptop, mid) if r["type"] == "SubmissionCommitted"]
    assert len(signed) == 1
    assert_signed_by(signed[0], mid, backup["public_key"])


def test_a_new_invite_takes_the_seat_from_its_old_holder(
    pages: NewPage, live_server: str, tmp_path: Path, console: Console, screenshot: Shooter
) -> None:
    host = pages()
    host.set_viewport_size({"width": 1280, "height": 900})
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben")
    mid = match_of(host_link)
    host.goto(host_link)
    open_step(host)
    old = claim(pages, links["ana"])
    with old.expect_download() as saving:
        old.get_by_role("button", name="Download my seat backup").click()
    old_backup = tmp_path / "old.json"
    saving.value.save_as(old_backup)
    old_key = kept_seat(old, mid, "ana")["public_key"]  # type: ignore[index]

    # 1. The host asks for a new invite: the console asks first, and cancelling changes nothing.
    expect(host.locator("tr[data-player=ana] .seat")).to_have_text("claimed, signs with its key")
    host.get_by_role("button", name="New invite for ana").click()
    expect(host.locator("#reinvite-question")).to_contain_text("loses it")
    shoot(host, screenshot, "claims-reinvite-confirm")
    host.get_by_role("button", name="Cancel").click()
    expect(host.locator("#reinvite-box")).to_be_hidden()
    assert not [r for r in records(host, mid) if r["type"] == "SeatReinvited"]

    # 2. Confirmed: a new link to copy, and the log records the re-invite.
    console.allow("401 (UNAUTHORIZED)")  # the old holder's page is refused: that is the point
    console.allow("403 (FORBIDDEN)")
    host.get_by_role("button", name="New invite for ana").click()
    host.get_by_role("button", name="Make a new invite").click()
    new_link = host.locator("#reinvite-link")
    expect(new_link).to_contain_text("#invite=")
    expect(host.get_by_role("button", name="Copy ana's new invite link")).to_be_visible()
    shoot(host, screenshot, "claims-reinvite-done")
    link = new_link.inner_text()
    assert link != links["ana"]
    log = records(host, mid)
    assert [r["data"] for r in log if r["type"] == "SeatReinvited"] == [
        {"actor": "host", "player": "ana"}
    ]

    # 3. The old holder's page loses the seat and says so.
    expect(old.locator("#seat-lost-message")).to_contain_text("You no longer hold this seat")
    expect(old.locator("#step-panel")).to_be_hidden()
    expect(old.locator("#receipts-panel")).to_be_visible()  # the player's proofs stay theirs
    shoot(old, screenshot, "claims-seat-lost")
    old.reload()  # and still says why after a reload
    expect(old.locator("#sign-in-message")).to_contain_text("You no longer hold this seat")

    # 4. The old backup no longer opens the seat.
    elsewhere = pages()
    elsewhere.goto(room_url(links["ana"]))
    elsewhere.get_by_label("Backup file of ana's seat").set_input_files(str(old_backup))
    expect(elsewhere.locator("#restore-result")).to_contain_text("no longer opens this seat")

    # 5. The new invite claims the seat with a new key; a pick from there is signed with it.
    new = claim(pages, link)
    seal_pick(new, "ben")
    log = records(new, mid)
    claims = [r["data"] for r in log if r["type"] == "SeatClaimed" and r["data"]["player"] == "ana"]
    new_key = kept_seat(new, mid, "ana")["public_key"]  # type: ignore[index]
    assert [c["public_key"] for c in claims] == [old_key, new_key] and new_key != old_key
    picks = [r for r in log if r["type"] == "SubmissionCommitted"]
    assert_signed_by(picks[-1], mid, new_key)
    expect(host.locator("tr[data-player=ana] .seat")).to_have_text("claimed, signs with its key")


def test_an_identical_resend_is_a_success_and_a_new_pick_replaces_the_earlier_one(
    pages: NewPage, live_server: str, console: Console, screenshot: Shooter
) -> None:
    host = pages()
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben, cai")
    mid = match_of(host_link)
    host.goto(host_link)
    open_step(host)
    room = claim(pages, links["ana"])
    first = seal_pick(room, "ben")
    result = room.locator("#pick-result")

    # 1. The answer to a send is lost on the way back (the service did record it): sending the
    #    same pick again is answered as unchanged, with the commitment that stands.
    console.allow("net::ERR_FAILED")

    def lose_the_answer(route: Route) -> None:
        route.fetch()  # the service receives and records the pick
        route.abort("failed")  # the browser never sees the answer

    send = room.get_by_role("button", name=re.compile("^Seal and send"))
    room.get_by_role("button", name="cai", exact=True).click()
    room.route(re.compile(r".*/submissions$"), lose_the_answer)
    send.click()
    expect(result).to_contain_text("Sending the same pick again is safe")
    room.unroute(re.compile(r".*/submissions$"))
    expect(send).to_be_enabled()
    send.click()
    expect(result).to_contain_text("Sealed, unchanged")
    expect(result).to_have_class(re.compile(r"\bok\b"))
    sent = room.get_attribute("#commitment-short", "title") or ""
    expect(room.locator("#commitment-short")).to_have_text(f"{sent[:12]}…")
    shoot(room, screenshot, "claims-resend-unchanged")

    # 2. Choosing the pick that stands again re-uses its salt: unchanged, not a new event.
    count = len(records(room, mid))
    room.get_by_role("button", name="cai", exact=True).click()
    send.click()
    expect(result).to_contain_text("Sealed, unchanged")
    assert room.get_attribute("#commitment-short", "title") == sent
    assert len(records(room, mid)) == count

    # 3. A different pick gets a fresh salt and replaces the earlier one.
    room.get_by_role("button", name="ben", exact=True).click()
    send.click()
    expect(result).to_contain_text("This replaced your earlier pick")
    again = room.get_attribute("#commitment-short", "title") or ""
    assert again != first["record"]["data"]["commitment"]  # not the first pick's salt either
    expect(result).to_have_class(re.compile(r"\bok\b"))
    commitments = [
        r["data"]["commitment"] for r in records(room, mid) if r["type"] == "SubmissionCommitted"
    ]
    assert commitments == [first["record"]["data"]["commitment"], sent, again]


def create_by_api(page: Page, players: list[str], **extra: Any) -> dict[str, Any]:
    """Create a vote through the API (as a script would); the answer holds the invites."""
    body = {"game": "vote", "players": players, "auto_open": False, "auto_seal": False, **extra}
    answer = page.request.post("/api/matches", data=body)
    assert answer.status == 201, answer.text()
    return answer.json()


def claim_by_api(page: Page, mid: str, player: str, invite: str, **extra: Any) -> str:
    """Claim a seat through the API (as a bot would); return the seat's credential."""
    answer = page.request.post(
        f"/api/matches/{mid}/players/{player}/claim", data={"invite": invite, **extra}
    )
    assert answer.status == 201, answer.text()
    return answer.json()["token"]


def test_a_credential_link_still_opens_its_seat_and_a_seat_without_its_key_here_says_so(
    pages: NewPage, live_server: str
) -> None:
    script = pages()
    created = create_by_api(script, ["ana", "ben"])
    mid = created["match_id"]
    host = pages()
    host.goto(created["links"]["host"])
    open_step(host)
    room = f"{live_server}/matches/{mid}/players"

    # 1. A seat a script claimed without a key: its #TOKEN link signs in; picks go unsigned.
    token = claim_by_api(script, mid, "ana", created["invites"]["ana"])
    ana = pages()
    ana.goto(f"{room}/ana#{token}")
    expect(ana.locator("#seat-state")).to_contain_text("has no signing key")
    assert "#" not in ana.url
    seal_pick(ana, "ben")
    picks = [r for r in records(ana, mid) if r["type"] == "SubmissionCommitted"]
    assert picks[0]["data"]["signature"] is None

    # 2. A seat whose key lives elsewhere: this browser cannot sign, and says what to do.
    elsewhere = Ed25519PrivateKey.generate().public_key().public_bytes_raw()  # ben's other device
    key = base64.b64encode(elsewhere).decode()
    token = claim_by_api(script, mid, "ben", created["invites"]["ben"], public_key=key)
    ben = pages()
    ben.goto(f"{room}/ben#{token}")
    expect(ben.locator("#seat-state")).to_contain_text("does not hold")
    ben.get_by_role("button", name="ana", exact=True).click()
    ben.get_by_role("button", name=re.compile("^Seal and send")).click()
    expect(ben.locator("#pick-result")).to_contain_text("restore your seat from its backup file")
    expect(ben.get_by_label("Backup file of ben's seat")).to_be_visible()
    assert len([r for r in records(ben, mid) if r["type"] == "SubmissionCommitted"]) == 1


def test_a_browser_without_ed25519_claims_its_seat_without_a_key(
    pages: NewPage, live_server: str
) -> None:
    host = pages()
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben")
    mid = match_of(host_link)
    host.goto(host_link)
    open_step(host)
    old = pages()
    old.add_init_script(
        "crypto.subtle.generateKey = () => Promise.reject(new DOMException('unsupported'));"
    )
    old.goto(links["ana"])
    expect(old.locator("#seat-state")).to_contain_text("has no signing key")
    seal_pick(old, "ben")
    log = records(old, mid)
    assert [r["data"]["public_key"] for r in log if r["type"] == "SeatClaimed"] == [None]


def test_a_self_custody_commitment_is_signed_and_opened(pages: NewPage, live_server: str) -> None:
    host = pages()
    host.goto(f"{live_server}/new")
    host.select_option("#game", "vote")
    host.fill("#players", "ana, ben")
    host.fill("#self-custody", "ana")
    host.click("#create")
    expect(host.locator("#created")).to_be_visible()
    link = host.get_attribute("a.player-link[data-player=ana]", "href") or ""
    host_link = host.get_attribute("#host-link", "href") or ""
    mid = match_of(host_link)
    host.goto(host_link)
    open_step(host)
    ana = claim(pages, link)
    seal_pick(ana, "ben")
    host.click("#seal")
    expect(ana.locator("#open-area")).to_be_visible(timeout=10_000)
    ana.get_by_role("button", name="Open my pick").click()
    expect(ana.locator("#open-result")).to_have_text("Opened: your pick counts.")
    log = records(ana, mid)
    key = next(r["data"]["public_key"] for r in log if r["type"] == "SeatClaimed")
    commitment = next(r for r in log if r["type"] == "SubmissionCommitted")
    assert commitment["data"]["custody"] == "self"
    assert_signed_by(commitment, mid, key)
    assert any(r["type"] == "OpeningReceived" for r in log)


def test_a_browser_that_keeps_no_cookie_is_told_so_instead_of_reloading_forever(
    pages: NewPage, live_server: str
) -> None:
    host = pages()
    _, links = create_from_console(host, live_server, "vote", "ana, ben")
    room = pages()

    def without_cookies(route: Route) -> None:
        answer = route.fetch()  # this shares the context's cookie jar: empty it again
        room.context.clear_cookies()
        headers = {k: v for k, v in answer.headers.items() if k.lower() != "set-cookie"}
        route.fulfill(response=answer, headers=headers)

    room.route("**/*", without_cookies)
    room.goto(links["ana"])
    expect(room.locator("#sign-in-message")).to_contain_text("allow cookies for this site")
    expect(room.get_by_label("Backup file of ana's seat")).to_be_visible()
