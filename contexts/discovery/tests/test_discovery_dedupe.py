"""Dedupe rules beyond the scenarios: fingerprint normalization, shingle limits, the identity-claim race."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.discovery.adapters.base import ObservedPosting
from jobctrl.discovery.domain.content import content_fingerprint, is_genuine_employer, jaccard, shingles
from jobctrl.discovery.domain.dedupe import JobCatalog, Verdict
from jobctrl.discovery.domain.identity import resolve_identity
from jobctrl.discovery.use_cases.record_observation import record_observation
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore

LONG = " ".join(f"alpha{i} beta{i % 9} gamma{i % 13}" for i in range(40))


def test_fingerprint_ignores_case_markup_and_spacing() -> None:
    a = content_fingerprint("Data Engineer", "Acme", "<p>Build   pipelines &amp; models</p>")
    b = content_fingerprint("data engineer", "ACME", "Build pipelines & models")
    assert a == b and a != content_fingerprint("Data Engineer", "Globex", "Build pipelines & models")


def test_shingles_need_eighty_tokens() -> None:
    assert shingles(" ".join(["word"] * 79)) is None
    eighty = shingles(" ".join(f"w{i}" for i in range(80)))
    assert eighty is not None and len(eighty) == 76


def test_jaccard_threshold_edge() -> None:
    base = LONG.split()
    edited = base[:100] + ["changed"] * 5 + base[105:]
    a, b = shingles(" ".join(base)), shingles(" ".join(edited))
    assert a is not None and b is not None and 0.83 <= jaccard(a, b) < 1


def test_placeholder_employers_are_not_genuine() -> None:
    assert not is_genuine_employer("Confidential")
    assert not is_genuine_employer("  N/A ")
    assert is_genuine_employer("Acme Robotics")


def _posting(source: str, native: str) -> ObservedPosting:
    return ObservedPosting(
        source_id=source,
        ats_kind="lever",
        native_id=native,
        posting_url="https://jobs.lever.co/acme/1",
        canonical_url="https://jobs.lever.co/acme/1",
        title="Engineer",
        employer="Acme",
        location="Remote",
        description=LONG,
    )


@pytest.mark.both_databases
def test_a_writer_with_a_stale_catalog_cannot_create_the_same_job_twice(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    clock = FixedClock(datetime(2026, 3, 1, tzinfo=UTC))
    first = record_observation(store, JobCatalog(), _posting("lever-acme", "1"), run_id="r1", clock=clock)
    # The second writer's catalog was loaded before the first job existed (parallel families).
    second = record_observation(store, JobCatalog(), _posting("lever-acme-2", "1"), run_id="r1", clock=clock)
    assert first.verdict is Verdict.NEW and second.verdict is Verdict.SAME_JOB
    assert second.job_id == first.job_id
    assert len(store.read_all(types=["JobDiscovered"])) == 1
    assert len(store.read_all(types=["JobSourceObserved"])) == 2


@pytest.mark.both_databases
def test_a_low_confidence_match_is_held_without_an_observation(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    clock = FixedClock(datetime(2026, 3, 1, tzinfo=UTC))
    catalog = JobCatalog()
    record_observation(store, catalog, _posting("lever-acme", "1"), run_id="r1", clock=clock)
    url_only = ObservedPosting(
        "board-x", "other", None, "https://jobs.lever.co/acme/1/", None, "Engineer", "Acme", "", ""
    )
    held = record_observation(store, catalog, url_only, run_id="r1", clock=clock)
    assert held.verdict is Verdict.HELD
    [rejected] = [store.registry.decode(r) for r in store.read_all(types=["DuplicateJobLinkRejected"])]
    assert rejected.job_id == held.job_id and rejected.reason == "identity_below_threshold"  # type: ignore[attr-defined]
    assert len(store.read_all(types=["JobSourceObserved"])) == 1


def test_site_local_native_ids_include_the_host() -> None:
    a = resolve_identity(
        posting_url="https://a.example/j/1",
        canonical_url="https://a.example/j/1",
        native_id="1",
        ats_kind="other",
    )
    b = resolve_identity(
        posting_url="https://b.example/j/1",
        canonical_url="https://b.example/j/1",
        native_id="1",
        ats_kind="other",
    )
    g = resolve_identity(
        posting_url="https://x/1", canonical_url="https://x/1", native_id="1", ats_kind="greenhouse"
    )
    assert a.native_key != b.native_key
    assert g.native_key == ("greenhouse", "1")
