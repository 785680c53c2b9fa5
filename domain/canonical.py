"""Canonical bytes shared by every hash in the protocol."""

from __future__ import annotations

import json
import re
from typing import Any

import rfc8785

_ENCODE = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode
# Python writes every float with a "." or an "e+"/"e-" exponent, and a number ends at ",",
# "]", "}" or the end of the text. A number of sixteen or more digits may be beyond 2**53,
# which RFC 8785 refuses. A match inside a string is a false alarm that only sends the value
# down the exact (slower) path. Each pattern starts with a literal or a character class
# (inside a value a number follows ":", ",", "[" or "-"), which keeps the scans cheap: this
# runs once per leaf when a bundle is verified.
_FRACTION = re.compile(r"\.\d+(?:e|[,\]}]|\Z)")
_EXPONENT = re.compile(r"e[+-]\d+(?:[,\]}]|\Z)")
_LONG_NUMBER = re.compile(r"[:,\[-]\d{16}")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def canonical_json(value: Any) -> bytes:
    r"""Return the RFC 8785 (JCS) canonical UTF-8 bytes of a JSON value.

    For objects, arrays, strings, booleans, null and integers up to 2**53 with no
    character beyond U+FFFF, RFC 8785 and Python's sorted compact ``json`` output are the
    same bytes (UTF-16 and code-point key order agree there), and ``json`` is about four
    times faster; anything else goes through ``rfc8785``.

    >>> canonical_json({"b": 1, "a": [True, None, "é"]})
    b'{"a":[true,null,"\xc3\xa9"],"b":1}'
    >>> canonical_json({"x": 1.0, "y": 1e16})
    b'{"x":1,"y":10000000000000000}'
    """
    try:
        text = _ENCODE(value)
    except (ValueError, TypeError):
        return rfc8785.dumps(value)
    if (
        _FRACTION.search(text)
        or _EXPONENT.search(text)
        or _LONG_NUMBER.search(text)
        or (text[0] in "-0123456789" and len(text) >= 16)  # noqa: PLR2004 - a bare number of 16+ digits
        or (not text.isascii() and _ASTRAL.search(text))
    ):
        return rfc8785.dumps(value)
    return text.encode()


def lp(data: bytes) -> bytes:
    r"""Prefix ``data`` with its length as 4 bytes, big-endian.

    >>> lp(b"abc")
    b'\x00\x00\x00\x03abc'
    """
    return len(data).to_bytes(4, "big") + data
