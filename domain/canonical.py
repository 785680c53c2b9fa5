"""Canonical bytes shared by every hash in the protocol."""

from __future__ import annotations

from typing import Any

import rfc8785


def canonical_json(value: Any) -> bytes:
    """Return the RFC 8785 (JCS) canonical UTF-8 bytes of a JSON value.

    >>> canonical_json({"b": 1, "a": [True, None, "é"]})
    b'{"a":[true,null,"\\xc3\\xa9"],"b":1}'
    """
    return rfc8785.dumps(value)


def lp(data: bytes) -> bytes:
    """Prefix ``data`` with its length as 4 bytes, big-endian.

    >>> lp(b"abc")
    b'\\x00\\x00\\x00\\x03abc'
    """
    return len(data).to_bytes(4, "big") + data
