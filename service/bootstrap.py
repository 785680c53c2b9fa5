"""The composition root: one function builds the service from its settings.

:func:`bootstrap` is the only place that assembles the application: the Flask factory
(``web.create_app``, hence ``web.wsgi``, gunicorn and the CLI), the benchmarks and the
test fixtures all call it. Each dependency can be overridden (the clock, randomness, the
bundle format), as in cosmicpython's ``bootstrap(start_orm=True, uow=...)``, and nothing
is built at import time.

The bundle format and the offline verifier belong to :mod:`replay`, which the service
layer never imports; whoever calls :func:`bootstrap` from above (the web layer, tests)
passes them in as ``bundles`` (``web.extension.replay_bundles()``). Without them the
service runs, but cannot export or import bundles.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from service.application import DealerRoom, utcnow
from service.archive import Archive
from service.notify_targets import NotifyTargets
from service.ticker import LOCK_FILE, Ticker

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Mapping
    from datetime import datetime

    from service.archive import BundleFormat
    from service.config import Settings
    from service.ticker import Log


class Background(Protocol):
    """Work a layer above runs beside the service (``web.news``): stopped when it closes."""

    def stop(self) -> None:
        """Stop the work (its threads end soon after)."""


@dataclass(frozen=True)
class Services:
    """The assembled service: the use cases on matches, bundles in and out, the ticker.

    ``targets`` are the matches' private notification targets (:mod:`service.notify_targets`);
    ``background`` is work started beside the service, stopped by :meth:`close`.
    """

    settings: Settings
    room: DealerRoom
    archive: Archive
    ticker: Ticker
    targets: NotifyTargets
    background: list[Background] = field(default_factory=list)

    def start_ticker(
        self, *, one_per_instance: bool = False, say: Log | None = None
    ) -> threading.Thread:
        """Start the deadline ticker in the background.

        With ``one_per_instance`` it ticks only once this process holds the instance's
        ticker lock, and says on ``say`` when it waits and when it runs.
        """
        lock = self.settings.instance / LOCK_FILE if one_per_instance else None
        return self.ticker.start(lock=lock, say=say)

    def close(self) -> None:
        """Stop the ticker and the background work, and close the store."""
        self.ticker.stop()
        for work in self.background:
            work.stop()
        self.room.close()


def bootstrap(  # noqa: PLR0913 - every dependency can be overridden
    settings: Settings,
    *,
    clock: Callable[[], datetime] = utcnow,
    random_bytes: Callable[[int], bytes] = os.urandom,
    bundles: BundleFormat | None = None,
    catch_up: bool = False,
    start_ticker: bool = False,
    tick_every: float = 1.0,
    decision_seconds: int = 300,
    reveal_seconds: int = 300,
    env: Mapping[str, str] | None = None,
) -> Services:
    """Build the service on ``settings``.

    ``bundles`` is :mod:`replay`'s bundle format and verifier (needed to export or import
    bundles); ``catch_up`` applies, before returning, the deadlines that passed while no
    service ran; ``start_ticker`` starts the deadline ticker (every ``tick_every``
    seconds). ``env`` overrides the eventsourcing persistence settings.

    :raises ConfigError: for keys that are not the store's (:mod:`service.keys`).
    """
    room = DealerRoom(
        settings,
        clock=clock,
        random_bytes=random_bytes,
        decision_seconds=decision_seconds,
        reveal_seconds=reveal_seconds,
        env=env,
    )
    targets = NotifyTargets(room.grants.engine, settings.db_schema, settings.sealing_keys)
    services = Services(settings, room, Archive(room, bundles), Ticker(room, tick_every), targets)
    if catch_up:
        room.tick()
    if start_ticker:
        services.start_ticker()
    return services


__all__ = ["Background", "Services", "bootstrap"]
