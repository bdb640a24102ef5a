"""A job's apply target is discovery's decision from its own ``JobDiscovered`` (ADR 0321): the
posting's ``applyUrl`` (a web form or ``mailto:``), else the posting URL; none for an unknown job."""

from __future__ import annotations

from typing import Any

import pytest

from jobctrl.discovery import Job, application_url
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.store import Database, EventStore

pytestmark = pytest.mark.both_databases


def _discovered(store: EventStore, job_id: str, metadata: dict[str, Any]) -> None:
    job = Job(job_id)
    job.discover(posting_url=f"https://jobs.example/{job_id}", source="lever", employer="Acme",
                 metadata=metadata, at="2026-03-01T09:00:00Z")  # fmt: skip
    AggregateRepository.for_class(store, Job).save(job)


def test_the_apply_url_else_the_posting_url(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    _discovered(store, "form", {"applyUrl": "https://jobs.example/form/apply"})
    _discovered(store, "email", {"applyUrl": "mailto:careers@acme.example"})
    _discovered(store, "blank", {"applyUrl": ""})
    _discovered(store, "odd", {"applyUrl": 42})
    _discovered(store, "plain", {})
    assert {
        job: application_url(store, job) for job in ("form", "email", "blank", "odd", "plain", "none")
    } == {
        "form": "https://jobs.example/form/apply",
        "email": "mailto:careers@acme.example",
        "blank": "https://jobs.example/blank",
        "odd": "https://jobs.example/odd",
        "plain": "https://jobs.example/plain",
        "none": None,
    }
