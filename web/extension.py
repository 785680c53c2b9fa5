"""The service as a Flask extension: where blueprints find it.

The app factory (:func:`web.create_app`) keeps the assembled
:class:`~service.bootstrap.Services` in ``app.extensions["dealerroom"]``; blueprints reach
it through :func:`service` (the use cases on matches) and :func:`archive` (bundles in and
out) without importing the package that imports them. :func:`replay_bundles` hands
:mod:`replay`'s bundle format and verifier to the composition root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flask import Flask, current_app

from service.archive import BundleFormat

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.signed_note import Verifier
    from service.application import DealerRoom
    from service.archive import Archive, VerdictLike
    from service.bootstrap import Services

EXTENSION = "dealerroom"


def init_app(app: Flask, services: Services) -> None:
    """Keep ``services`` in ``app``; they are closed with the app's last reference."""
    app.extensions[EXTENSION] = services


def services(app: Flask | None = None) -> Services:
    """The assembled service of the current (or given) Flask app."""
    target = app if app is not None else current_app
    return cast("Services", target.extensions[EXTENSION])


def service(app: Flask | None = None) -> DealerRoom:
    """The dealerroom application (use cases on matches) of the current (or given) app."""
    return services(app).room


def archive(app: Flask | None = None) -> Archive:
    """Bundles in and out of the current (or given) app's service."""
    return services(app).archive


def replay_bundles() -> BundleFormat:
    """:mod:`replay`'s bundle format and offline verifier, for :func:`service.bootstrap.bootstrap`.

    Each is imported on first use, so starting the app (or the CLI) does not load the
    verifier.
    """
    return BundleFormat(check=_check, verify=_verify, build=_build, key_text=_key_text)


def _check(bundle: Any) -> object:
    from replay.bundle import check_bundle  # noqa: PLC0415 - on first use

    return check_bundle(bundle)


def _verify(
    bundle: Any,
    *,
    trusted_key: Verifier | str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> VerdictLike:
    from replay.verify import verify_bundle  # noqa: PLC0415 - on first use

    return verify_bundle(bundle, trusted_key=trusted_key, progress=progress)


def _build(
    records: list[dict[str, Any]], checkpoints: list[dict[str, Any]], public_key: str
) -> dict[str, Any]:
    from replay.bundle import build_bundle  # noqa: PLC0415 - on first use

    return dict(build_bundle(records, checkpoints, public_key))


def _key_text(key: Verifier | str) -> str:
    from replay.bundle import verifier_key  # noqa: PLC0415 - on first use

    return verifier_key(key).vkey()


__all__ = ["EXTENSION", "archive", "init_app", "replay_bundles", "service", "services"]
