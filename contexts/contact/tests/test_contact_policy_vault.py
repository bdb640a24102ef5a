"""Source-access policy and the per-subject vault."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.contact.adapters.extraction import (
    ContactResearchCandidates,
    OfflineContactExtractor,
    extract_offline,
)
from jobctrl.contact.adapters.vault import PersonalDataVault, SubjectForgotten
from jobctrl.contact.domain.policy import (
    AUTHENTICATION,
    AUTONOMOUS_BROAD_DISCOVERY,
    THIRD_PARTY_CONTROL_BYPASS,
    Outcome,
    SourceAccessPolicy,
    allowlist_from,
)
from jobctrl.kernel.store import Database
from jobctrl.llm import StructuredRequest

NOW = datetime(2026, 4, 1, tzinfo=UTC)


def test_hard_invariants_are_constants() -> None:
    assert (AUTHENTICATION, THIRD_PARTY_CONTROL_BYPASS, AUTONOMOUS_BROAD_DISCOVERY) == ("none", False, False)


def test_empty_allowlist_allows_nothing() -> None:
    assert (
        SourceAccessPolicy(allowlist_from([])).decide("https://acme.example/team").outcome is Outcome.REJECTED
    )


@pytest.mark.parametrize(
    ("url", "category", "outcome"),
    [
        ("https://acme.example/team", "public_web_page", Outcome.ALLOWED),
        ("https://ACME.example/about", "user_entered", Outcome.ALLOWED),
        ("https://acme.example/team", "derived", Outcome.REJECTED),
        ("https://acme.example/oauth/authorize", "public_web_page", Outcome.MANUAL_CAPTURE_REQUIRED),
        ("https://acme.example/paywall/team", "public_web_page", Outcome.MANUAL_CAPTURE_REQUIRED),
        ("https://user:pw@acme.example/team", "public_web_page", Outcome.REJECTED),
        ("http://localhost/team", "public_web_page", Outcome.REJECTED),
        ("http://[::1]/team", "public_web_page", Outcome.REJECTED),
        ("http://192.168.1.4/team", "public_web_page", Outcome.REJECTED),
        ("http://metadata.google.internal/computeMetadata", "public_web_page", Outcome.REJECTED),
    ],
)
def test_policy_decisions(url: str, category: str, outcome: Outcome) -> None:
    policy = SourceAccessPolicy(allowlist_from(["https://acme.example/", "http://localhost/"]))
    assert policy.decide(url, category).outcome is outcome


def test_vault_seals_deterministically_and_forgets(database: Database) -> None:
    vault = PersonalDataVault(database)
    vault.create_schema()
    sealed = vault.seal("s1", {"name": "Jane"}, now=NOW)
    assert sealed == vault.seal("s1", {"name": "Jane"}, now=NOW)  # retries produce identical events
    assert sealed != vault.seal("s2", {"name": "Jane"}, now=NOW)  # a key per subject
    assert "Jane" not in sealed and vault.open("s1", sealed) == {"name": "Jane"}
    vault.forget("s1", now=NOW)
    assert vault.open("s1", sealed) is None
    with pytest.raises(SubjectForgotten):
        vault.seal("s1", {"name": "Jane"}, now=NOW)


def test_offline_extraction_invents_nobody() -> None:
    assert extract_offline("We are hiring!\nApply now.").candidates == []
    request = StructuredRequest(
        task="extract_contact_candidates",
        response_model=ContactResearchCandidates,
        system="",
        prompt="Ann Lee — CTO",
    )
    result = OfflineContactExtractor().structured(request)
    assert [c.name for c in result.value.candidates] == ["Ann Lee"] and result.usage.model.startswith("local")
