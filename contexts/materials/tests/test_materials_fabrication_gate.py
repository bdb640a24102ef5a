"""The fabrication gate on its own: what it flags and, as importantly, what it lets through."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobctrl.materials.domain.evidence import EvidenceIndex
from jobctrl.materials.domain.fabrication import ClaimKind, unsupported_claims
from jobctrl.materials.domain.sample import sample_profile

pytestmark = pytest.mark.domain
INDEX = EvidenceIndex(sample_profile())
GLOBEX = INDEX.for_facts(["exp-globex", "b-globex-1", "b-globex-2", "b-globex-3"])


def claims(text: str, facts: list[str] | None = None, exempt: tuple[str, ...] = ()) -> set[tuple[str, str]]:
    evidence = GLOBEX if facts is None else INDEX.for_facts(facts)
    return {(c.kind.value, c.token) for c in unsupported_claims(text, evidence, exempt)}


@pytest.mark.parametrize(
    "text",
    [
        "Cut p99 checkout latency by 40% across 12 services.",
        "Reduced checkout latency by forty percent.".replace("forty", "40"),
        "Built Kafka pipelines moving $1.2M a day.",  # same value as $1,200,000
        "As Senior Backend Engineer at Globex since March 2019, led the ledger migration to PostgreSQL.",
        "Led the migration of the ledger to PostgreSQL across twelve services.",
        "Worked with Python and Kafka on API design.",
        "Helped the rest of the team go live and excel at spring planning.",  # everyday words
    ],
)
def test_supported_text_passes(text: str) -> None:
    assert claims(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cut latency by 73%.", {("number", "73")}),
        ("Cut latency by 40% across fifteen services.", {("number", "fifteen")}),
        ("Moved $3M a day.", {("number", "$3M")}),
        ("Joined in 2014.", {("date", "2014")}),
        ("Shipped the ledger in June 2019.", {("date", "June 2019")}),
        ("Promoted to Staff Engineer.", {("title", "Staff Engineer")}),
        ("Acted as CTO for the payments unit.", {("title", "CTO")}),
        ("Partnered with Stripe on payouts.", {("employer", "Stripe")}),
        ("Consulted for Wayne Enterprises Inc.", {("employer", "Wayne Enterprises Inc")}),
        ("Rewrote the ledger in Rust.", {("technology", "Rust")}),
        ("Ran the ledger on EC2 with C++ services.", {("technology", "EC2"), ("technology", "C++")}),
        ("Used Snowflake and GraphQL daily.", {("technology", "Snowflake"), ("technology", "GraphQL")}),
        ("Kubernetes operator for the ledger.", {("technology", "Kubernetes")}),  # first word too
        ("Rewrote the ledger service in Go.", {("technology", "Go")}),
    ],
)
def test_unsupported_claims_are_flagged(text: str, expected: set[tuple[str, str]]) -> None:
    assert claims(text) == expected


def test_evidence_is_limited_to_the_cited_facts() -> None:
    # Java is in the profile, but only under Initech: citing a Globex bullet does not support it.
    assert claims("Cut latency by 40% in Java.", ["b-globex-1"]) == {("technology", "Java")}
    assert claims("Maintained billing services in Java.", ["exp-initech", "b-initech-1"]) == set()


def test_exempt_phrases_are_not_claims() -> None:
    text = "I would like to join Hooli as Staff Platform Engineer."
    assert claims(text, ["sum-1"]) == {("title", "Staff Platform Engineer"), ("employer", "Hooli")}
    assert claims(text, ["sum-1"], exempt=("Staff Platform Engineer", "Hooli")) == set()


@given(st.integers(min_value=13, max_value=10_000).filter(lambda n: n not in {40, 99, 2019}))
def test_any_invented_number_is_caught(number: int) -> None:
    found = claims(f"Cut p99 checkout latency by {number}% across 12 services.")
    assert len(found) == 1 and next(iter(found))[0] in {ClaimKind.NUMBER.value, ClaimKind.DATE.value}


@given(st.sampled_from([b for e in sample_profile().experiences for b in e.bullets]))
def test_every_profile_bullet_supports_itself(bullet: object) -> None:
    assert claims(bullet.text, [bullet.id]) == set()  # type: ignore[attr-defined]
