"""The repeat-application identity (ADR 0160): one key per employer token set + role token set.

Properties (hypothesis) say which changes of form keep the key; examples pin the issue's cases; a real
log written with the v1 key shows that old identities still refuse a repeat and still honour an
override after the key changed.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobctrl.apply.domain.errors import ClaimRefused
from jobctrl.apply.domain.facts import ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.identity import (
    ROLE_ALIASES,
    ApplicationIdentity,
    identity_key,
    legacy_identity_key,
)
from jobctrl.apply.use_cases._common import identities, load_identity
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.grant_repeat_override import grant_repeat_override
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.testing.apply_facts import ready_facts

CLOCK = FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC))
_CANONICAL = sorted({w for words in ROLE_ALIASES.values() for w in words} | set(ROLE_ALIASES))
# Role words that are neither aliases nor canonical targets nor noise: each one changes the role.
_PLAIN = st.sampled_from(
    ["platform", "data", "backend", "frontend", "staff", "lead", "security", "mobile", "cloud", "game"]
)
_EMPLOYER = st.lists(st.sampled_from(["globex", "initech", "umbrella", "hooli", "acme", "vandelay"]),
                     min_size=1, max_size=3, unique=True).map(" ".join)  # fmt: skip
_ROLE = st.lists(_PLAIN, min_size=1, max_size=4, unique=True)


@given(_EMPLOYER, _ROLE, st.randoms())
def test_word_order_and_case_do_not_change_the_key(employer: str, role: list[str], rnd: object) -> None:
    shuffled = list(role)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert identity_key(employer, " ".join(role)) == identity_key(
        employer.upper(), " ".join(shuffled).title()
    )


@given(_EMPLOYER, _ROLE, st.sampled_from(["Inc.", ", Inc", "LLC", "Ltd", "GmbH", "Corp.", "plc", "S.A."]))
def test_a_trailing_legal_form_does_not_change_the_key(employer: str, role: list[str], form: str) -> None:
    assert identity_key(employer, " ".join(role)) == identity_key(f"{employer} {form}", " ".join(role))


@given(_EMPLOYER, _ROLE, st.sampled_from(sorted(ROLE_ALIASES)))
def test_an_alias_is_its_expansion(employer: str, role: list[str], alias: str) -> None:
    expanded = " ".join(ROLE_ALIASES[alias])
    assert identity_key(employer, " ".join([*role, alias])) == identity_key(
        employer, f"{expanded} {' '.join(role)}"
    )


@given(_EMPLOYER, _ROLE, _PLAIN)
def test_another_role_word_is_another_role(employer: str, role: list[str], extra: str) -> None:
    if extra in role:
        return
    assert identity_key(employer, " ".join(role)) != identity_key(employer, " ".join([*role, extra]))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Acme", "Senior Platform Engineer"), ("ACME, Inc.", "Platform Senior Eng")),
        (("Acme Inc.", "Data Engineer"), ("ACME", "data   engineer")),
        (("Zürich Labs GmbH", "ML-Engineer"), ("Zurich Labs", "machine learning engineer")),
        (("Initech", "Sr. SWE"), ("Initech Ltd", "Senior Software Engineer")),
        (("Hooli", "Data Engineer II"), ("Hooli Corp", "data eng 2")),
        (("Procter & Gamble", "Brand Manager"), ("Procter and Gamble Co.", "brand mgr")),
    ],
)
def test_same_evidence_is_one_identity(a: tuple[str, str], b: tuple[str, str]) -> None:
    assert identity_key(*a) == identity_key(*b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Acme", "Data Engineer"), ("Acme", "Data Engineer II")),
        (("Acme", "Senior Platform Engineer"), ("Acme", "Platform Engineer")),
        (("Acme", "Platform Engineer"), ("Acme", "Platform Engineering Manager")),
        (("Acme", "Data Engineer"), ("Acme Bank", "Data Engineer")),
        (("Inc", "Engineer"), ("Co", "Engineer")),  # a legal form alone is a name
    ],
)
def test_different_roles_or_employers_are_different_identities(
    a: tuple[str, str], b: tuple[str, str]
) -> None:
    assert identity_key(*a) != identity_key(*b)


def test_the_v1_key_is_frozen() -> None:
    # The digest logs already hold for these names; changing it would orphan their streams.
    assert legacy_identity_key("Acme Inc.", "Data Engineer") == legacy_identity_key("ACME", "data engineer")
    assert (
        legacy_identity_key("Acme", "Data Engineer")
        == hashlib.sha256(b"acme\x1fdata engineer").hexdigest()[:32]
    )
    assert legacy_identity_key("Acme", "Data Engineer") != identity_key("Acme", "Data Engineer")


def _facts(job: str, employer: str, role: str) -> CurrentJobFacts:
    return ready_facts(job, employer, role)


def _v1_claim(store: EventStore, job: str, employer: str, role: str) -> None:
    """Write a claim the way the code before ADR 0160 did: on the v1-keyed stream."""
    repo = identities(store, CLOCK)
    key = legacy_identity_key(employer, role)
    identity = repo.load(key) or ApplicationIdentity(key)
    identity.claim(job_id=job, run_id=f"old-{job}", claimed_at="2026-02-01T09:00:00Z")
    repo.save(identity)


@pytest.mark.both_databases
def test_an_identity_claimed_under_the_v1_key_still_refuses_a_repeat(store: EventStore) -> None:
    _v1_claim(store, "old-job", "Acme Inc.", "Data Engineer")
    legacy = identities(store, CLOCK).get(legacy_identity_key("Acme", "Data Engineer"))
    assert legacy.state.claimed_by == {"old-job"}  # the old stream folds as it always did
    policy = ClaimPolicy(approval_required=False)
    with pytest.raises(ClaimRefused) as refused:
        claim_apply(store, _facts("new-job", "ACME", "data engineer"), policy,
                    run_id="r1", worker_id="w", model="m", dry_run=False, clock=CLOCK)  # fmt: skip
    assert refused.value.reason == "repeat_application"
    assert [e.event_type for e in store.read_all(limit=100)] == ["ApplicationIdentityClaimed"]

    grant_repeat_override(store, _facts("new-job", "ACME", "data engineer"), clock=CLOCK)
    claim_apply(store, _facts("new-job", "ACME", "data engineer"), policy,
                run_id="r2", worker_id="w", model="m", dry_run=False, clock=CLOCK)  # fmt: skip
    new = load_identity(identities(store, CLOCK), "Acme", "Data Engineer")
    assert new.state.claimed_by == {"new-job"} and new.claimed_by == {"new-job", "old-job"}
    # the v1 stream is read, never written again
    assert (
        identities(store, CLOCK).get(legacy_identity_key("Acme", "Data Engineer")).version == legacy.version
    )


@pytest.mark.both_databases
def test_an_unused_v1_override_is_still_honoured(store: EventStore) -> None:
    _v1_claim(store, "old-job", "Acme", "Data Engineer")
    repo = identities(store, CLOCK)
    legacy = repo.get(legacy_identity_key("Acme", "Data Engineer"))
    legacy.grant_override(
        job_id="new-job", override_id="ov-1", reason_present=False, granted_at="2026-02-02T09:00:00Z"
    )
    repo.save(legacy)
    policy = ClaimPolicy(approval_required=False)
    claim = claim_apply(store, _facts("new-job", "Acme", "Data Engineer"), policy,
                        run_id="r1", worker_id="w", model="m", dry_run=False, clock=CLOCK)  # fmt: skip
    assert claim.run_id == "r1"
    claimed = [e for e in store.read_all(limit=100) if e.event_type == "ApplicationIdentityClaimed"]
    assert json.loads(claimed[-1].payload)["overrideId"] == "ov-1"
