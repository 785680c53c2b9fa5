"""The keys at start-up: a store that holds events is only served with the keys it was made with.

Keys are generated only into an *empty* store (:mod:`service.config`). When the store
already holds events, :func:`check_keys` stops the service, with one line naming the key,
if

* the sealing keys do not open the oldest and the newest stored sealed field (a replaced
  key, or a rotation that dropped the old key), or
* the signing key (with ``DEALERROOM_ORIGIN``, whose host names the key) is not the key of
  the latest stored checkpoint of the service's own matches.

The same goes, before any of that, for a sealing or signing key file that was missing and
that this start generated (the original was lost or moved: every sealed pick would be
unreadable, and every receipt would stop verifying against new checkpoints): the line says
the file is missing, and the generated file is removed again, so restoring the original is
all it takes.

**Rotating the sealing key** is allowed: put the new key first and the old ones after it,
comma-separated (``DEALERROOM_SEALING_KEY=new,old``); new fields are sealed with the first,
old ones still open with theirs. **The signing key cannot be rotated in place**: every
receipt a player holds pins it, and a later checkpoint signed by another key cannot prove to
them that the log still extends theirs. Start a new instance (a new store) under the new
key; the old instance can stay up read-only to serve its matches' checkpoints and bundles.
The session key (``session.key``) only signs the web pages' cookies, so a lost one is
regenerated: everyone signed in on a page signs in again with their link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eventsourcing.utils import get_topic
from sqlalchemy import select

from domain.match import Match
from domain.sealed import SealedBindingError
from domain.signed_note import NoteError, open_checkpoint
from service.config import SEALING_KEY_FILE, SIGNING_KEY_FILE, ConfigError
from service.sealing import SealingError
from service.transparency import ProofRequestError

if TYPE_CHECKING:
    from service.application import DealerRoom

# Every match's first two events hold sealed fields (credential hashes, the host seed).
SEALED_TOPICS = (get_topic(Match.MatchCreated), get_topic(Match.SeedCommitted))
NEWEST_WINDOW = 10_000  # notifications searched back from the newest for a sealed field

_KEY_SETTING = {
    SEALING_KEY_FILE: "DEALERROOM_SEALING_KEY",
    SIGNING_KEY_FILE: "DEALERROOM_SIGNING_KEY",
}


class KeyProblem(ConfigError):
    """The configured keys are not the ones the store's events were sealed or signed with."""


def check_keys(room: DealerRoom) -> None:
    """Check the room's keys against what its store holds; an empty store passes.

    :raises KeyProblem: with one line naming the key and what to do.
    """
    generated = room.settings.generated
    if not room.recorder.max_notification_id():
        generated.clear()  # made for this empty store: they are its keys from now on
        return
    for name in (SEALING_KEY_FILE, SIGNING_KEY_FILE):
        if name in generated:  # lost, even if nothing it sealed or signed is stored yet
            _refuse(room, name, "")
    if not _sealing_key_opens_the_store(room):
        _refuse(room, SEALING_KEY_FILE, SEALING_MISMATCH)
    if not _signing_key_signed_the_store(room):
        _refuse(room, SIGNING_KEY_FILE, SIGNING_MISMATCH)


SEALING_MISMATCH = (
    "the sealing key (DEALERROOM_SEALING_KEY or sealing.key) does not open the sealed data "
    "already in the store: restore the key it was sealed with, or list that key after the "
    "new one (DEALERROOM_SEALING_KEY=new,old)"
)
SIGNING_MISMATCH = (
    "the signing key (DEALERROOM_SIGNING_KEY or signing.key) or DEALERROOM_ORIGIN is not the "
    "one that signed the checkpoints in the store: restore both; a signing key cannot be "
    "changed for an existing store (docs/deploy.md says how to move to a new one)"
)


def _refuse(room: DealerRoom, name: str, mismatch: str) -> None:
    """Stop: the key file was lost (and just generated: remove it again) or the key is wrong.

    :raises KeyProblem: always.
    """
    settings = room.settings
    if name in settings.generated:
        path = settings.instance / name
        path.unlink(missing_ok=True)  # made by this start for an old store: never use it
        msg = (
            f"the key file {path} is missing, but the store already holds events made with "
            f"it: restore it from a backup (or set {_KEY_SETTING[name]}); the service does "
            "not start with a new key for an old store"
        )
        raise KeyProblem(msg)
    raise KeyProblem(mismatch)


def _sealing_key_opens_the_store(room: DealerRoom) -> bool:
    """Whether the sealing keys open the oldest and the newest stored sealed field."""
    recorder = room.recorder
    oldest = recorder.select_notifications(1, 1, topics=SEALED_TOPICS)
    newest_id = recorder.max_notification_id() or 0
    recent = recorder.select_notifications(
        max(1, newest_id - NEWEST_WINDOW), NEWEST_WINDOW, topics=SEALED_TOPICS
    )
    for notification in [*oldest, *recent[-1:]]:
        try:
            room.mapper.to_domain_event(notification)
        except (SealingError, SealedBindingError):
            return False
    return True


def _signing_key_signed_the_store(room: DealerRoom) -> bool:
    """Whether the latest stored checkpoint of this service's own matches verifies with its key."""
    index, log = room.index, room.tlog
    with index.engine.connect() as conn:
        latest = conn.execute(
            select(index.index.c.match_id)
            .outerjoin(index.imports, index.imports.c.match_id == index.index.c.match_id)
            .where(index.imports.c.match_id.is_(None))
            .order_by(index.index.c.last_activity.desc())
            .limit(1)
        ).scalar()
    if latest is None:  # nothing projected yet: nothing signed to compare with
        return True
    try:
        note = log.checkpoint(latest)["note"]
    except ProofRequestError:  # signed nothing yet
        return True
    try:
        open_checkpoint(note, [log.signer.verifier()], origin=log.origin(latest))
    except (NoteError, ValueError):
        return False
    return True
