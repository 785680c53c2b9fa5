"""Benchmark (b): the offline verifier's merkle check against hashing the same leaves alone.

Run: ``.venv/bin/python -m bench.verify [EVENTS]`` (default 100,000). Prints events/s of
both and their ratio; the target is >= 50,000 events/s and within 5x of hashing alone.
"""

from __future__ import annotations

import hashlib
import sys
import time

from domain.canonical import canonical_json
from replay.verify import verify_bundle
from tests.unit.test_replay_verify import big_bundle


def main(events: int = 100_000) -> None:
    """Measure both in the same run and print the ratio."""
    bundle = big_bundle(events)
    start = time.perf_counter()
    for record in bundle["records"]:
        hashlib.sha256(b"\x00" + canonical_json(record)).digest()
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    verdict = verify_bundle(bundle, checks=["merkle"])
    measured = time.perf_counter() - start
    assert verdict.ok
    print(f"hash leaves alone: {events / baseline:,.0f} events/s")
    print(f"verify (merkle):   {events / measured:,.0f} events/s")
    print(f"ratio verify/hash: {measured / baseline:.2f}x (target <= 5x, >= 50,000 events/s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
