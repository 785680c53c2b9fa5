"""Reading input files (bundles, receipts, later checkpoints, scenarios) within fixed bounds.

Every file a reviewer hands the command line is read and parsed here, so none can cost
more than its bound before it is refused (``docs/protocol-bundles.md`` section 6):

* at most ``limit`` bytes are read (:data:`BUNDLE_LIMIT`, :data:`SCENARIO_LIMIT`,
  :data:`SMALL_LIMIT`), so ``/dev/zero`` or a huge file fails after the bound, not after
  memory runs out; a NUL byte, which JSON text never holds, fails at once;
* the JSON is UTF-8 with no repeated member names and no ``NaN``/``Infinity``;
* a number has at most :data:`MAX_NUMBER_CHARS` characters after its sign (a 5,000-digit
  number is refused before anything converts it);
* values nest at most :data:`MAX_DEPTH` levels (checked without recursion, so nothing later
  recurses deeper than that).

Errors are :class:`InputError` (a ``ValueError``) in one sentence naming the input.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, BinaryIO

from domain.errors import UserError

MAX_DEPTH = 100
MAX_NUMBER_CHARS = 40
MIB = 1024 * 1024
BUNDLE_LIMIT = 256 * MIB
SCENARIO_LIMIT = 16 * MIB
SMALL_LIMIT = 1 * MIB  # a receipt or a later checkpoint
_CHUNK = 64 * 1024
_LONG_RUN = re.compile(f"[0-9]{{{MAX_NUMBER_CHARS + 1},}}")  # a whole number too long has one


class InputError(UserError):
    """An input file that cannot be read, or is not JSON within the bounds."""


def read_limited(path: str, limit: int, what: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused beyond ``limit`` bytes.

    :raises InputError: when the file cannot be read, is larger than ``limit`` or holds a
        NUL byte (no JSON text does; ``/dev/zero`` fails on its first chunk).
    """
    try:
        if path == "-":
            return _read_stream(sys.stdin.buffer, limit, what, "standard input")
        with open(path, "rb") as handle:  # noqa: PTH123 - a path or a device
            return _read_stream(handle, limit, what, path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        if isinstance(exc, InputError):
            raise
        msg = f"cannot read {what} {path}: {getattr(exc, 'strerror', None) or exc}"
        raise InputError(msg) from None


def _read_stream(stream: BinaryIO, limit: int, what: str, name: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        if b"\0" in chunk:
            msg = f"{what} {name} is not JSON text: it holds a NUL byte"
            raise InputError(msg)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            msg = f"{what} {name} is larger than {_size(limit)}, the most this reader takes"
            raise InputError(msg)
    return b"".join(chunks)


def _size(limit: int) -> str:
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"


def parse_json(data: bytes | str, what: str) -> Any:
    """Parse JSON text within the bounds of this module.

    :raises InputError: naming ``what`` and the first thing that is wrong.

    >>> parse_json(b'{"a": [1, 2.5, "x"]}', "the file")
    {'a': [1, 2.5, 'x']}
    >>> parse_json("[" * 101 + "]" * 101, "the file")
    Traceback (most recent call last):
    ...
    replay.inputs.InputError: the file nests values more than 100 levels deep
    """
    if isinstance(data, bytes):
        try:
            text = data.decode()
        except UnicodeDecodeError as exc:
            msg = f"{what} is not UTF-8: byte {exc.start} is not UTF-8"
            raise InputError(msg) from None
    else:
        text = data
    hooks: dict[str, Any] = {
        "object_pairs_hook": _no_repeats(what),
        "parse_constant": _no_constant(what),
        "parse_float": _number(what, float),
    }
    if _LONG_RUN.search(text):  # only then can a whole number be too long: check each one
        hooks["parse_int"] = _number(what, int)
    try:
        value = json.loads(text, **hooks)
    except json.JSONDecodeError as exc:
        msg = f"{what} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise InputError(msg) from None
    except RecursionError:
        msg = f"{what} nests values more than {MAX_DEPTH} levels deep"
        raise InputError(msg) from None
    check_depth(value, what)
    return value


def load_json_file(path: str, limit: int, what: str) -> Any:
    """Read ``path`` within ``limit`` bytes and parse it (:func:`read_limited`, :func:`parse_json`).

    :raises InputError:
    """
    return parse_json(read_limited(path, limit, what), f"{what} {path}")


def check_depth(value: Any, what: str, limit: int = MAX_DEPTH) -> None:
    """:raises InputError: when lists and objects in ``value`` nest deeper than ``limit``.

    Walks with an explicit stack, so it never recurses itself.
    """
    if not isinstance(value, (dict, list)):
        return
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        for child in children:
            if isinstance(child, (dict, list)):
                if depth >= limit:
                    msg = f"{what} nests values more than {limit} levels deep"
                    raise InputError(msg)
                stack.append((child, depth + 1))


def _no_repeats(what: str) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                msg = f"{what} repeats the member {_short(key)} in one object"
                raise InputError(msg)
            out[key] = value
        return out

    return hook


def _no_constant(what: str) -> Any:
    def hook(name: str) -> None:
        msg = f"{what} holds {name}, which is not a JSON number"
        raise InputError(msg)

    return hook


def _number(what: str, kind: type) -> Any:
    def hook(text: str) -> Any:
        length = len(text.removeprefix("-"))
        if length > MAX_NUMBER_CHARS:
            msg = (
                f"{what} holds a number of {length:,} characters; numbers here have at most "
                f"{MAX_NUMBER_CHARS}"
            )
            raise InputError(msg)
        value = kind(text)
        if value in (float("inf"), float("-inf")):
            msg = f"{what} holds the number {text}, too large for a JSON number here"
            raise InputError(msg)
        return value

    return hook


def _short(text: str, width: int = 40) -> str:
    shown = json.dumps(text, ensure_ascii=True)
    return shown if len(shown) <= width else shown[: width - 2] + '…"'


__all__ = [
    "BUNDLE_LIMIT",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "SCENARIO_LIMIT",
    "SMALL_LIMIT",
    "InputError",
    "check_depth",
    "load_json_file",
    "parse_json",
    "read_limited",
]
