"""An injectable clock: domain code asks a Clock for the time, tests hand in a FixedClock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("FixedClock needs an aware datetime")

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        self._now += delta


def isoformat(moment: datetime) -> str:
    """ISO-8601 in UTC with millisecond precision and a ``Z`` suffix, the wire form of every time."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are not allowed on the wire")
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso(clock: Clock | None = None) -> str:
    """The clock's present (the system clock's when none is given) on the wire: ``isoformat(clock.now())``."""
    return isoformat((clock or SystemClock()).now())


def parse_instant(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"timestamp without a zone: {text!r}")
    return moment.astimezone(UTC)
