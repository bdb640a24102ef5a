"""Typed identifiers.

Ids are ``NewType``s over ``str`` so they cost nothing at run time but keep a JobId from being passed
where a SourceId is expected.  ``checked_id`` validates the shape before an id becomes a key or a
file name.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from typing import NewType

JobId = NewType("JobId", str)
SourceId = NewType("SourceId", str)
RunId = NewType("RunId", str)
EventId = NewType("EventId", str)
StreamId = NewType("StreamId", str)
ArtifactId = NewType("ArtifactId", str)
ContactId = NewType("ContactId", str)
TaskId = NewType("TaskId", str)
WorkflowId = NewType("WorkflowId", str)
TenantId = NewType("TenantId", str)

LOCAL_TENANT = TenantId("local")

_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,199}$")


class InvalidIdError(ValueError):
    pass


def checked_id(value: str) -> str:
    """Return ``value`` if it is a safe id (letters, digits, ``_.:-``, at most 200 chars)."""
    if not _SAFE_ID.fullmatch(value) or ".." in value:
        raise InvalidIdError(f"not a safe id: {value[:60]!r}")
    return value


def new_job_id() -> JobId:
    return JobId(str(uuid.uuid4()))


def new_event_id() -> EventId:
    return EventId(str(uuid.uuid4()))


def deterministic_id(namespace: str, *parts: str) -> str:
    """A stable id derived from the situation it names (never from wall-clock time)."""
    digest = hashlib.sha256("\x1f".join((namespace, *parts)).encode()).hexdigest()
    return str(uuid.UUID(digest[:32]))
