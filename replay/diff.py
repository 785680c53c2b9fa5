"""Readable differences between two JSON values (public views, outcomes, results)."""

from __future__ import annotations

import json
from typing import Any


def diff_values(old: Any, new: Any, path: str = "") -> list[str]:
    """Return readable ``"path: old → new"`` lines for what differs between two JSON values.

    Objects are compared key by key and lists of objects or lists element by element when
    their lengths agree; other lists are shown whole. A missing key shows as ``(none)``.

    >>> diff_values({"points": {"ana": 66}, "rows": [[3], [19]]},
    ...             {"points": {"ana": 61}, "rows": [[3, 11], [19]]})
    ['points.ana: 66 → 61', 'rows[0]: [3] → [3, 11]']
    """
    return [f"{where}: {_shown(a)} → {_shown(b)}" for where, a, b in diff_pairs(old, new, path)]


def diff_pairs(old: Any, new: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Return ``(path, old, new)`` for each place where two JSON values differ.

    The places are :func:`diff_values`'s lines; a key one side lacks is :data:`MISSING` on
    that side; values that differ as a whole have the path ``"(the whole value)"``.

    >>> diff_pairs({"rows": [[3], [19]]}, {"rows": [[3, 11], [19]], "new": 1})
    [('rows[0]', [3], [3, 11]), ('new', (none), 1)]
    """
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        found: list[tuple[str, Any, Any]] = []
        for key in [*old, *(k for k in new if k not in old)]:
            sub = f"{path}.{key}" if path else str(key)
            found += diff_pairs(old.get(key, _NONE), new.get(key, _NONE), sub)
        return found
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and any(isinstance(v, (dict, list)) for v in [*old, *new])
    ):
        found = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found += diff_pairs(a, b, f"{path}[{i}]")
        return found
    return [(path or WHOLE_VALUE, old, new)]


class _None:
    def __repr__(self) -> str:
        return "(none)"


_NONE = _None()
MISSING: Any = _NONE
"""What :func:`diff_pairs` gives for a key one side lacks (shown as ``(none)``)."""
WHOLE_VALUE = "(the whole value)"


def _shown(value: Any) -> str:
    if value is _NONE:
        return "(none)"
    return json.dumps(value, ensure_ascii=False)


__all__ = ["MISSING", "WHOLE_VALUE", "diff_pairs", "diff_values"]
