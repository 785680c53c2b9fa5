"""Progress of a long verification, on standard error."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

PROGRESS_EVERY = 4096
PROGRESS_LARGE = 50_000  # records; a bundle this long shows progress even off a terminal


def progress_reporter(
    records: int, stream: TextIO | None = None
) -> Callable[[int, int], None] | None:
    """A ``progress`` callback for :func:`verify_bundle` that writes to ``stream`` (stderr).

    On a terminal, a bundle of at least :data:`PROGRESS_EVERY` records gets one line
    rewritten in place and cleared at the end; off a terminal, a bundle of at least
    :data:`PROGRESS_LARGE` records gets a line at every tenth of the work. Otherwise there
    is nothing to report (``None``): a small bundle is checked before anyone would wait.

    >>> import io
    >>> stream = io.StringIO()
    >>> report = progress_reporter(100_000, stream)
    >>> for done in (50_000, 52_000, 100_000, 200_000):
    ...     report(done, 200_000)
    >>> print(stream.getvalue(), end="")
    verifying 100,000 records: 25%
    verifying 100,000 records: 50%
    verifying 100,000 records: 100%
    >>> progress_reporter(10, io.StringIO()) is None
    True
    """
    out = sys.stderr if stream is None else stream
    terminal = bool(getattr(out, "isatty", lambda: False)())
    if records < (PROGRESS_EVERY if terminal else PROGRESS_LARGE):
        return None
    shown = [-1]

    def report(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if terminal:
            end = done >= total
            text = "" if end else f"verifying {records:,} records: {percent}%"
            out.write(f"\r\x1b[K{text}")
        elif percent // 10 > shown[0]:
            shown[0] = percent // 10
            out.write(f"verifying {records:,} records: {percent}%\n")
        out.flush()

    return report


__all__ = ["PROGRESS_EVERY", "PROGRESS_LARGE", "progress_reporter"]
