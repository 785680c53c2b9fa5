"""Configuration: where the store is and where the keys come from.

Every setting comes from the environment (or a mapping passed by the composition root);
keys are never in the repository or the database. When no key is configured, one is
generated once into the instance folder with owner-only permissions and reused.

============================== ===============================================================
``DEALERROOM_INSTANCE``        instance folder (default ``./instance``)
``DEALERROOM_DATABASE_URL``    any SQLAlchemy URL (default ``sqlite:///<instance>/dealerroom.sqlite3``);
                               ``postgresql+psycopg://user@host/db`` for deployments
``DEALERROOM_DB_SCHEMA``       PostgreSQL schema for the tables (default: the search path)
``DEALERROOM_SEALING_KEY``     AES-256 key for sealed fields, 64 hex digits; older keys that
                               may still decrypt old events follow, comma-separated
``DEALERROOM_SIGNING_KEY``     Ed25519 seed for checkpoints, 64 hex digits
``DEALERROOM_ORIGIN``          log origin prefix for checkpoints (default ``dealerroom.localhost``)
``DEALERROOM_SESSION_KEY``     key that signs the web front end's session cookies, 64 hex digits
============================== ===============================================================

``DEALERROOM_SQLITE_SYNCHRONOUS`` (``FULL``, the default, ``NORMAL`` or ``EXTRA``) sets how often
the embedded SQLite store fsyncs; :mod:`service.sqlite_pragmas` says why FULL.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from service.sqlite_pragmas import SYNCHRONOUS_LEVELS

if TYPE_CHECKING:
    from collections.abc import Mapping

SEALING_KEY_FILE = "sealing.key"
SIGNING_KEY_FILE = "signing.key"
SESSION_KEY_FILE = "session.key"


class ConfigError(ValueError):
    """A setting is malformed."""


@dataclass(frozen=True)
class Settings:
    """The resolved settings of one service instance."""

    instance: Path
    database_url: str
    db_schema: str | None
    sealing_keys: tuple[bytes, ...]  # the first encrypts; all may decrypt
    signing_seed: bytes
    origin: str
    session_key: bytes  # signs the web front end's session cookies
    sqlite_synchronous: str = "FULL"  # see service.sqlite_pragmas

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Resolve settings from ``env`` (default: the process environment).

        :raises ConfigError: for a malformed key or URL.
        """
        env = os.environ if env is None else env
        instance = Path(env.get("DEALERROOM_INSTANCE") or "instance").resolve()
        instance.mkdir(parents=True, exist_ok=True)
        url = env.get("DEALERROOM_DATABASE_URL") or f"sqlite:///{instance / 'dealerroom.sqlite3'}"
        if "://" not in url:
            msg = f"DEALERROOM_DATABASE_URL {url!r} is not a SQLAlchemy URL"
            raise ConfigError(msg)
        sealing = env.get("DEALERROOM_SEALING_KEY") or _key_file(instance / SEALING_KEY_FILE)
        signing = env.get("DEALERROOM_SIGNING_KEY") or _key_file(instance / SIGNING_KEY_FILE)
        return cls(
            instance=instance,
            database_url=url,
            db_schema=env.get("DEALERROOM_DB_SCHEMA") or None,
            sealing_keys=tuple(
                _hex_key(k, "DEALERROOM_SEALING_KEY") for k in sealing.split(",") if k.strip()
            ),
            signing_seed=_hex_key(signing, "DEALERROOM_SIGNING_KEY"),
            origin=(env.get("DEALERROOM_ORIGIN") or "dealerroom.localhost").rstrip("/"),
            session_key=_hex_key(
                env.get("DEALERROOM_SESSION_KEY") or _key_file(instance / SESSION_KEY_FILE),
                "DEALERROOM_SESSION_KEY",
            ),
            sqlite_synchronous=_sqlite_synchronous(env),
        )


def _sqlite_synchronous(env: Mapping[str, str]) -> str:
    level = (env.get("DEALERROOM_SQLITE_SYNCHRONOUS") or "FULL").strip().upper()
    if level not in SYNCHRONOUS_LEVELS:
        msg = f"DEALERROOM_SQLITE_SYNCHRONOUS must be one of {', '.join(SYNCHRONOUS_LEVELS)}"
        raise ConfigError(msg)
    return level


def _hex_key(text: str, name: str) -> bytes:
    text = text.strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:  # noqa: PLR2004
        msg = f"{name} must be 64 hex digits (32 bytes)"
        raise ConfigError(msg)
    return key


def _key_file(path: Path) -> str:
    """Read a key file, creating it once (owner read/write only) if it is absent.

    The key is written to a private temporary file first and then hard-linked into place,
    which fails if the name exists: so a key file is never seen half-written, and when two
    processes start at once both end up with the one that was linked first.
    """
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:  # another process linked its key first: use theirs
            return path.read_text().strip()
    finally:
        os.unlink(temporary)
    return key
