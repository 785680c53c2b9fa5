"""Record times: the ``at`` of every public record, as the protocol writes it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from domain.records import format_time, parse_time

MOMENTS = st.datetimes(
    min_value=datetime(1970, 1, 2),  # noqa: DTZ001 - hypothesis wants naive bounds
    max_value=datetime(9998, 12, 30),  # noqa: DTZ001
    timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=7))]
    ),
)


@given(MOMENTS)
def test_a_time_is_written_as_rfc3339_utc_with_microseconds(moment: datetime) -> None:
    """The fast writer gives exactly what the protocol's strftime pattern gives."""
    expected = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert format_time(moment) == expected


@given(MOMENTS)
def test_a_written_time_reads_back_as_the_same_moment(moment: datetime) -> None:
    """What is written is read back to the same instant, in UTC."""
    assert parse_time(format_time(moment)) == moment.astimezone(UTC)


def test_whole_seconds_keep_six_digits_of_microseconds() -> None:
    """``isoformat`` alone drops a zero fraction; the record never does."""
    assert format_time(datetime(2026, 11, 21, 0, 56, 30, tzinfo=UTC)) == (
        "2026-11-21T00:56:30.000000Z"
    )
