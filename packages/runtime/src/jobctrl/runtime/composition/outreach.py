"""Outreach's composition: the truthfulness gate over the saved profile, and the services a draft
needs (ADR 0275).

The gate is materials' fabrication check (``unsupported_profile_claims``) with the whole saved
profile as evidence, so an outreach message is held to the rule a resume is held to.  The LLM is the
configured provider (offline by default, with contact's handlers registered) recording into the one
spend ledger; the API and the CLI draft through it like the worker's activities call it.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from jobctrl.contact import ContactServices, PersonalDataVault
from jobctrl.contact.activities import register_offline_contact
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import LlmPort, OfflineProvider, build_provider
from jobctrl.materials import CandidateProfile, unsupported_profile_claims
from jobctrl.orchestration import ledger_with_settings
from jobctrl.runtime.composition.profiles import materials_profile, saved_profile
from jobctrl.runtime.config import load_config


@dataclass(frozen=True)
class ProfileTruthGate:
    """``contact.ports.TruthfulnessGate`` over one version of the candidate's profile."""

    profile: CandidateProfile

    @property
    def profile_version(self) -> int:
        return self.profile.version

    @property
    def candidate_name(self) -> str:
        return self.profile.name

    def prompt_facts(self) -> str:
        return msgspec.json.encode(self.profile.to_builtins()).decode()

    def unsupported(self, text: str, *, exempt: list[str]) -> list[str]:
        return [f"{c.kind}:{c.token}" for c in unsupported_profile_claims(text, self.profile, exempt)]


def profile_gate(store: EventStore) -> ProfileTruthGate | None:
    """The gate over the saved profile; ``None`` before a profile was saved (drafting is refused)."""
    saved = saved_profile(store)
    if saved is None:
        return None
    return ProfileTruthGate(materials_profile(*saved))


def outreach_llm(db: Database, clock: Clock) -> LlmPort:
    """The configured provider, spend recorded into the ledger the preflight reads (ADR 0110)."""
    llm = build_provider(load_config().llm.settings(), ledger_with_settings(db, clock=clock))
    if isinstance(llm, OfflineProvider):
        register_offline_contact(llm)
    return llm


def outreach_services(
    db: Database, store: EventStore, clock: Clock, tenant_id: str, *, llm: LlmPort | None = None
) -> ContactServices:
    return ContactServices(
        store=store, vault=PersonalDataVault(db), clock=clock, tenant_id=tenant_id,
        llm=llm, gate=profile_gate(store),
    )  # fmt: skip
