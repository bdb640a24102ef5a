"""The contact bounded context: researching who to contact at an employer, with personal data
sealed per subject so it can be forgotten (ADR 0050, 0103).

* ``events`` — published events (importable alone); personal values in them are sealed.
* ``domain`` — the aggregates ``ContactResearchTask`` and ``Contact`` (``aggregates``) and the
  ``SourceAccessPolicy`` deciding which pages research may read (``policy``).
* ``use_cases`` — one command per module: ``start_research``, ``run_research``,
  ``confirm_candidate``, ``reject_candidate``, ``finish_review``, ``delete_contact``; each takes the
  ``ContactServices`` (``services``: store, clock, vault, tenant).
  Outreach (ADR 0275): the ``OutreachThread`` aggregate (``domain.outreach``) and ``draft_outreach``,
  ``revise_outreach``, ``approve_outreach``, ``reject_outreach``, ``log_outreach_send``,
  ``record_outreach_reply``, ``schedule_follow_up``, ``complete_follow_up``, ``dismiss_follow_up``,
  and the query ``read_outreach``.
* ``ports`` — the ``PageFetcher`` port and its typed errors; the ``TruthfulnessGate`` drafts pass.
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
    from jobctrl.contact.domain.outreach import (
        DraftStatus,
        DraftVersionMismatch,
        InvalidOutreachInput,
        OutreachThread,
        OutreachThreadNotFound,
        OutreachTransitionError,
        UnsupportedOutreachClaims,
        thread_id_for,
    )
    from jobctrl.contact.domain.policy import SourceAccessPolicy
    from jobctrl.contact.ports import (
        FetchedPage,
        PageFetcher,
        RateLimitedError,
        RobotsDisallowedError,
        TruthfulnessGate,
    )
    from jobctrl.contact.use_cases.approve_outreach import approve_outreach
    from jobctrl.contact.use_cases.complete_follow_up import complete_follow_up
    from jobctrl.contact.use_cases.confirm_candidate import confirm_candidate
    from jobctrl.contact.use_cases.delete_contact import delete_contact
    from jobctrl.contact.use_cases.dismiss_follow_up import dismiss_follow_up
    from jobctrl.contact.use_cases.draft_outreach import DraftedMessage, draft_outreach
    from jobctrl.contact.use_cases.finish_review import finish_review
    from jobctrl.contact.use_cases.log_outreach_send import log_outreach_send
    from jobctrl.contact.use_cases.read_outreach import ReplyText, ThreadText, read_outreach
    from jobctrl.contact.use_cases.record_outreach_reply import record_outreach_reply
    from jobctrl.contact.use_cases.reject_candidate import reject_candidate
    from jobctrl.contact.use_cases.reject_outreach import reject_outreach
    from jobctrl.contact.use_cases.revise_outreach import revise_outreach
    from jobctrl.contact.use_cases.run_research import ResearchReport, run_research
    from jobctrl.contact.use_cases.schedule_follow_up import schedule_follow_up
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
    "OutreachThread": "jobctrl.contact.domain.outreach",
    "OutreachTransitionError": "jobctrl.contact.domain.outreach",
    "DraftVersionMismatch": "jobctrl.contact.domain.outreach",
    "UnsupportedOutreachClaims": "jobctrl.contact.domain.outreach",
    "OutreachThreadNotFound": "jobctrl.contact.domain.outreach",
    "InvalidOutreachInput": "jobctrl.contact.domain.outreach",
    "DraftStatus": "jobctrl.contact.domain.outreach",
    "thread_id_for": "jobctrl.contact.domain.outreach",
    "TruthfulnessGate": "jobctrl.contact.ports",
    "draft_outreach": "jobctrl.contact.use_cases.draft_outreach",
    "DraftedMessage": "jobctrl.contact.use_cases.draft_outreach",
    "revise_outreach": "jobctrl.contact.use_cases.revise_outreach",
    "approve_outreach": "jobctrl.contact.use_cases.approve_outreach",
    "reject_outreach": "jobctrl.contact.use_cases.reject_outreach",
    "log_outreach_send": "jobctrl.contact.use_cases.log_outreach_send",
    "record_outreach_reply": "jobctrl.contact.use_cases.record_outreach_reply",
    "schedule_follow_up": "jobctrl.contact.use_cases.schedule_follow_up",
    "complete_follow_up": "jobctrl.contact.use_cases.complete_follow_up",
    "dismiss_follow_up": "jobctrl.contact.use_cases.dismiss_follow_up",
    "read_outreach": "jobctrl.contact.use_cases.read_outreach",
    "ThreadText": "jobctrl.contact.use_cases.read_outreach",
    "ReplyText": "jobctrl.contact.use_cases.read_outreach",
}
__all__ = [
    "Contact",
    "ContactResearchTask",
    "ContactRuleViolation",
    "ContactServices",
    "DraftStatus",
    "DraftVersionMismatch",
    "DraftedMessage",
    "FetchedPage",
    "FileKeyStore",
    "GatewayContactFetcher",
    "InvalidOutreachInput",
    "OfflineContactExtractor",
    "OutreachThread",
    "OutreachThreadNotFound",
    "OutreachTransitionError",
    "PageFetcher",
    "PersonalDataVault",
    "RateLimitedError",
    "ReplyText",
    "ResearchReport",
    "RobotsDisallowedError",
    "SourceAccessPolicy",
    "SubjectForgotten",
    "SubjectKeyStore",
    "TaskState",
    "ThreadText",
    "TruthfulnessGate",
    "UnsupportedOutreachClaims",
    "approve_outreach",
    "complete_follow_up",
    "confirm_candidate",
    "delete_contact",
    "dismiss_follow_up",
    "draft_outreach",
    "finish_review",
    "log_outreach_send",
    "read_outreach",
    "record_outreach_reply",
    "reject_candidate",
    "reject_outreach",
    "revise_outreach",
    "run_research",
    "schedule_follow_up",
    "start_research",
    "thread_id_for",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
