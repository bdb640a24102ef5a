"""The ports and stores a contact use case needs (built by the composition root).

The repositories write under ``tenant_id`` (default ``local``); the research activity builds its
services with the workflow's tenant (ADR 0082).  ``gate`` is the truthfulness gate outreach drafts
pass (ADR 0275).
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.contact.adapters.vault import PersonalDataVault
from jobctrl.contact.domain.aggregates import Contact, ContactResearchTask
from jobctrl.contact.domain.outreach import OutreachThread
from jobctrl.contact.ports import PageFetcher, TruthfulnessGate
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.llm import LlmPort, SpendRecorder


@dataclass(frozen=True)
class ContactServices:
    store: EventStore
    vault: PersonalDataVault
    clock: Clock
    llm: LlmPort | None = None
    spend: SpendRecorder | None = None
    fetcher: PageFetcher | None = None
    tenant_id: str = LOCAL_TENANT
    gate: TruthfulnessGate | None = None

    @property
    def tasks(self) -> AggregateRepository[ContactResearchTask]:
        return AggregateRepository.for_class(
            self.store, ContactResearchTask, clock=self.clock, tenant_id=self.tenant_id
        )

    @property
    def contacts(self) -> AggregateRepository[Contact]:
        return AggregateRepository.for_class(self.store, Contact, clock=self.clock, tenant_id=self.tenant_id)

    @property
    def threads(self) -> AggregateRepository[OutreachThread]:
        return AggregateRepository.for_class(
            self.store, OutreachThread, clock=self.clock, tenant_id=self.tenant_id
        )
