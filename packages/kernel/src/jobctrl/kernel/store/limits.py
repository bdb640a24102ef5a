"""The length limits of ``job_events``' bounded columns, checked by the store before any SQL.

PostgreSQL refuses an over-long ``VARCHAR(n)`` value with a driver error mid-transaction and SQLite
stores it silently, so without this check the same append fails on one database and succeeds on the
other.  ``EventStore`` calls ``check_lengths`` for every append (both the driver path and a
``WriteTransaction``), so every writer gets the typed ``IdTooLong`` and nothing is written (ADR 0240).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from jobctrl.kernel.store.errors import IdTooLong
from jobctrl.kernel.store.schema import job_events

if TYPE_CHECKING:
    from jobctrl.kernel.store.encoding import EncodedEvent


def _limit(column: Any) -> int:
    length = getattr(column.type, "length", None)
    if not isinstance(length, int):  # every bounded column of job_events is a String(n)
        raise TypeError(f"{column} has no length")
    return length


# The bounded text columns of ``job_events``, as (field name, index in an ``EncodedEvent``, limit);
# the limits are read from the table so the check and the schema cannot drift apart.
_BOUNDED = (
    ("event_id", 0, _limit(job_events.c.event_id)),
    ("event_type", 1, _limit(job_events.c.event_type)),
    ("tenant_id", 3, _limit(job_events.c.tenant_id)),
    ("job_id", 4, _limit(job_events.c.job_id)),
    ("occurred_at", 5, _limit(job_events.c.occurred_at)),
)
STREAM_ID_LIMIT = _limit(job_events.c.stream_id)


# The same limits as (getter, limit) for the whole-batch pass: one C-level sweep per column.  Only
# ``job_id`` may be None; a None elsewhere makes ``len`` raise, and the walk below skips it.
_COLUMN_LIMITS = tuple((itemgetter(index), limit) for name, index, limit in _BOUNDED if name != "job_id")
_JOB_ID = next((itemgetter(index), limit) for name, index, limit in _BOUNDED if name == "job_id")
(_ID_MAX, _TYPE_MAX, _TENANT_MAX, _JOB_MAX, _AT_MAX) = (limit for _n, _i, limit in _BOUNDED)


def check_lengths(stream_id: str, encoded: Sequence[EncodedEvent]) -> None:
    """``IdTooLong`` when the stream id or any event's bounded field exceeds its column.

    One event is checked field by field; a batch takes the longest value of each column once
    (ADR 0355, 0364).  Only a batch with an over-long value is walked event by event, to name the
    first one.
    """
    first_type = encoded[0][1] if encoded else "?"
    if len(stream_id) > STREAM_ID_LIMIT:
        raise IdTooLong(first_type, "stream_id", len(stream_id), STREAM_ID_LIMIT)
    try:
        if len(encoded) == 1:
            e = encoded[0]
            within = (
                len(e[0]) <= _ID_MAX
                and len(e[1]) <= _TYPE_MAX
                and len(e[3]) <= _TENANT_MAX
                and (not e[4] or len(e[4]) <= _JOB_MAX)
                and len(e[5]) <= _AT_MAX
            )
        else:
            get_job, job_max = _JOB_ID
            within = max(map(len, filter(None, map(get_job, encoded))), default=0) <= job_max and all(
                max(map(len, map(get, encoded)), default=0) <= limit for get, limit in _COLUMN_LIMITS
            )
    except TypeError:  # a value that is not text: the walk below skips it, as it always did
        within = False
    if not within:
        _name_the_first_over_long(encoded)


def _name_the_first_over_long(encoded: Sequence[EncodedEvent]) -> None:
    for event in encoded:
        for name, index, limit in _BOUNDED:
            value = event[index]
            if isinstance(value, str) and len(value) > limit:
                raise IdTooLong(event[1], name, len(value), limit)
