"""The contact bounded context: researching who to contact at an employer, with personal data
sealed per subject so it can be forgotten (ADR 0050, 0103).

* ``events`` — published events (importable alone); personal values in them are sealed.
* ``domain`` — the aggregates ``ContactResearchTask`` and ``Contact`` (``aggregates``) and the
  ``SourceAccessPolicy`` deciding which pages research may read (``policy``).
* ``use_cases`` — one command per module: ``start_research``, ``run_research``,
  ``confirm_candidate``, ``reject_candidate``, ``finish_review``, ``delete_contact``; each takes the
  ``ContactServices`` (``services``: store, clock, vault, tenant).
* ``ports`` — the ``PageFetcher`` port and its typed errors.
* ``adapters`` — ``vault`` (``PersonalDataVault`` over a ``SubjectKeyStore``, by default the
  ``FileKeyStore``), ``gateway_fetcher`` (the port over the politeness gateway), ``extraction`` (the
  candidates a model may return and the offline extractor).
* ``activities`` — the contact-research Temporal activity.

The public face below is resolved lazily (``jobctrl.kernel.exports``): importing this package, as
importing its ``events`` does, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.contact.adapters.extraction import OfflineContactExtractor
    from jobctrl.contact.adapters.gateway_fetcher import GatewayContactFetcher
    from jobctrl.contact.adapters.vault import (
        FileKeyStore,
        PersonalDataVault,
        SubjectForgotten,
        SubjectKeyStore,
    )
    from jobctrl.contact.domain.aggregates import (
        Contact,
        ContactResearchTask,
        ContactRuleViolation,
        TaskState,
    )
    from jobctrl.contact.domain.policy import SourceAccessPolicy
    from jobctrl.contact.ports import FetchedPage, PageFetcher, RateLimitedError, RobotsDisallowedError
    from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
    from jobctrl.contact.use_cases.delete_contact import delete_contact
    from jobctrl.contact.use_cases.finish_review import finish_review
    from jobctrl.contact.use_cases.reject_candidate import reject_candidate
    from jobctrl.contact.use_cases.run_research import ResearchReport, run_research
    from jobctrl.contact.use_cases.services import ContactServices
    from jobctrl.contact.use_cases.start_research import start_research

_EXPORTS: dict[str, str] = {
    "start_research": "jobctrl.contact.use_cases.start_research",
    "run_research": "jobctrl.contact.use_cases.run_research",
    "ResearchReport": "jobctrl.contact.use_cases.run_research",
    "confirm_candidate": "jobctrl.contact.use_cases.confirm_candidate",
    "reject_candidate": "jobctrl.contact.use_cases.reject_candidate",
    "finish_review": "jobctrl.contact.use_cases.finish_review",
    "delete_contact": "jobctrl.contact.use_cases.delete_contact",
    "ContactServices": "jobctrl.contact.use_cases.services",
    "PageFetcher": "jobctrl.contact.ports",
    "FetchedPage": "jobctrl.contact.ports",
    "RobotsDisallowedError": "jobctrl.contact.ports",
    "RateLimitedError": "jobctrl.contact.ports",
    "ContactResearchTask": "jobctrl.contact.domain.aggregates",
    "Contact": "jobctrl.contact.domain.aggregates",
    "ContactRuleViolation": "jobctrl.contact.domain.aggregates",
    "SourceAccessPolicy": "jobctrl.contact.domain.policy",
    "PersonalDataVault": "jobctrl.contact.adapters.vault",
    "SubjectKeyStore": "jobctrl.contact.adapters.vault",
    "FileKeyStore": "jobctrl.contact.adapters.vault",
    "SubjectForgotten": "jobctrl.contact.adapters.vault",
    "GatewayContactFetcher": "jobctrl.contact.adapters.gateway_fetcher",
    "OfflineContactExtractor": "jobctrl.contact.adapters.extraction",
    "TaskState": "jobctrl.contact.domain.aggregates",
}
__all__ = [
    "Contact",
    "ContactResearchTask",
    "ContactRuleViolation",
    "ContactServices",
    "FetchedPage",
    "FileKeyStore",
    "GatewayContactFetcher",
    "OfflineContactExtractor",
    "PageFetcher",
    "PersonalDataVault",
    "RateLimitedError",
    "ResearchReport",
    "RobotsDisallowedError",
    "SourceAccessPolicy",
    "SubjectForgotten",
    "SubjectKeyStore",
    "TaskState",
    "confirm_candidate",
    "delete_contact",
    "finish_review",
    "reject_candidate",
    "run_research",
    "start_research",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
