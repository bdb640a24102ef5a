"""The worker's composition root: every real activity, wired to its ports.

``Composition.build(db, sources=..., search=...)`` creates the tables it needs (event store,
orchestration's ``llm_spend``/settings, the personal-data vault), the spend ledger (a
``SpendRecorder``), the LLM provider from the ``[llm]`` configuration (offline by default, with the
scoring and materials handlers registered), the artifact store under ``$JOBCTRL_HOME/artifacts``, the
politeness gateway factory (honest UA from settings; loopback sources get
``policy.for_local_servers()``), the Chromium renderer and the apply browser (both started lazily on
their own threads), and orchestration's stage tracker.  Discover's search is ``[search]``
(``config.search.filters``) unless ``search`` is given.
``activities()`` is what ``build_activities(deps, overrides)`` takes; ``targets`` feeds the fan-out.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from jobctrl.apply import ClaimPolicy
from jobctrl.apply.activities import ApplyActivities
from jobctrl.contact import ContactServices, GatewayContactFetcher, PersonalDataVault
from jobctrl.contact.activities import ContactActivities, register_offline_contact
from jobctrl.contact.ports import PageFetcher as ContactPageFetcher
from jobctrl.discovery import SearchFilters
from jobctrl.discovery.activities import DiscoveryActivities, SourceCatalog
from jobctrl.discovery.ports import BoardScraper
from jobctrl.enrichment import GatewayPageFetcher
from jobctrl.enrichment.activities import EnrichmentActivities
from jobctrl.enrichment.ports import PageFetcher
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.llm import LlmPort, LlmSettings, OfflineProvider, build_provider
from jobctrl.materials import ArtifactStore, ChromiumPdfRenderer, PageSize
from jobctrl.materials.activities import MaterialsActivities, register_offline_materials
from jobctrl.materials.ports import PdfRenderer
from jobctrl.orchestration import (
    DiscoveryRunLog,
    OrchestrationSettings,
    SettingsStore,
    SpendLedger,
    StageTrackerService,
    create_orchestration_tables,
)
from jobctrl.orchestration.activities import PreparationStateActivities
from jobctrl.politeness import CONTACT_POLICY, ENRICHMENT_POLICY, CrawlPolicy, PolitenessGateway, UserAgent
from jobctrl.runtime.activities import ActivityFn
from jobctrl.runtime.composition.browser import ManagedBrowserApply
from jobctrl.runtime.composition.email import ResumePdfReader, smtp_sender_from
from jobctrl.runtime.composition.facts import JobFacts
from jobctrl.runtime.config import JobctrlConfig, load_config
from jobctrl.runtime.settings import config_seed
from jobctrl.scoring import register_offline_scoring
from jobctrl.scoring.activities import ScoringActivities

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def honest_user_agent(settings: OrchestrationSettings) -> UserAgent:
    """Our own product token plus a contact: the first URL or mailbox in the configured crawl UA, else
    ``JOBCTRL_CRAWL_CONTACT``, else a local mailbox naming this install (never a browser's UA)."""
    for raw in settings.crawl_user_agent.replace("(", " ").replace(")", " ").split():
        token = raw.lstrip("+").rstrip(";,")
        if token.startswith(("http://", "https://", "mailto:")) or ("@" in token and "." in token):
            return UserAgent(contact=token)
    return UserAgent(contact=os.environ.get("JOBCTRL_CRAWL_CONTACT") or "mailto:owner@jobctrl.localhost")


def claim_policy(min_score: float, settings: OrchestrationSettings) -> ClaimPolicy:
    """What the apply activity obeys at each claim, from the saved settings as they are now."""
    return ClaimPolicy(
        min_score=min_score,
        approval_required=settings.apply_approval_required,
        browser_submit_hosts=frozenset(settings.browser_submit_allowlist),
    )


def local_policy(policy: CrawlPolicy) -> CrawlPolicy:
    """Loopback sources (the sample board) may be crawled; everything else keeps its policy."""
    return policy.for_local_servers().replace(min_interval_s=0.0)


@dataclass
class Composition:
    db: Database
    store: EventStore
    clock: Clock
    settings: OrchestrationSettings
    ledger: SpendLedger
    llm: LlmPort
    artifacts: ArtifactStore
    tracker: StageTrackerService
    facts: JobFacts
    discovery: DiscoveryActivities
    enrichment: EnrichmentActivities
    scoring: ScoringActivities
    materials: MaterialsActivities
    apply: ApplyActivities
    preparation: PreparationStateActivities
    contact: ContactActivities

    @classmethod
    def build(
        cls,
        db: Database,
        store: EventStore,
        *,
        sources: SourceCatalog,
        clock: Clock | None = None,
        llm_settings: LlmSettings | None = None,
        config: JobctrlConfig | None = None,
        artifacts_root: Path | None = None,
        min_score: int | None = None,
        renderer: Callable[[], PdfRenderer] = ChromiumPdfRenderer,
        render_lanes: int | None = None,
        browser: Callable[[], object] | None = None,
        search: Callable[[], SearchFilters] | None = None,
        broad_boards: bool | None = None,
        board_scraper: BoardScraper | None = None,
    ) -> Composition:
        clock = clock or SystemClock()
        # The user's configuration ($JOBCTRL_HOME/config.toml + environment); explicit arguments win.
        config = config or load_config()
        store.create_schema()
        create_orchestration_tables(db)
        PersonalDataVault(db).create_schema()
        settings_store = SettingsStore(db, clock=clock, seed=config_seed(config))
        settings = settings_store.load()
        ledger = SpendLedger(db, lambda: settings_store.load().daily_budget_usd, clock=clock)
        llm = build_provider(llm_settings or config.llm.settings(), ledger)
        if isinstance(llm, OfflineProvider):
            register_offline_scoring(llm)
            register_offline_materials(llm)
            register_offline_contact(llm)
        artifacts = ArtifactStore(artifacts_root or jobctrl_home() / "artifacts")
        tracker = StageTrackerService(store, clock=clock)

        # min_fit_score and apply_concurrency are re-read from the saved settings where they are used
        # (each verdict, each claim, each poll), so a PATCH takes effect without a restart (ADR 0135).
        def threshold() -> int:
            return int(settings_store.load().min_fit_score) if min_score is None else min_score

        paper = PageSize(config.materials.paper_size)
        facts = JobFacts(
            store, artifacts=artifacts, tracker=tracker, clock=clock, min_score=threshold, paper_size=paper
        )
        user_agent = honest_user_agent(settings)

        def all_local() -> bool:
            # Loopback crawling only when every configured source is local (the sample board, or a
            # source added with a loopback --api-base); an empty catalog is not "local", so a fresh
            # worker never loosens the policies by default.  Re-read each time: sources are added
            # while the worker runs.
            configured = list(sources())
            return bool(configured) and all(urlsplit(s.base_url).hostname in LOOPBACK for s in configured)

        local = all_local()

        def discovery_policy(policy: CrawlPolicy) -> CrawlPolicy:
            return local_policy(policy) if all_local() else policy

        @asynccontextmanager
        async def fetcher() -> AsyncIterator[PageFetcher]:
            async with PolitenessGateway(user_agent) as gateway:
                yield GatewayPageFetcher(
                    gateway, local_policy(ENRICHMENT_POLICY) if all_local() else ENRICHMENT_POLICY
                )

        @asynccontextmanager
        async def contact_fetcher() -> AsyncIterator[ContactPageFetcher]:
            async with PolitenessGateway(user_agent) as gateway:
                yield GatewayContactFetcher(
                    gateway, local_policy(CONTACT_POLICY) if local else CONTACT_POLICY
                )

        def managed_browser() -> object:
            return ManagedBrowserApply()

        return cls(
            db=db, store=store, clock=clock, settings=settings, ledger=ledger, llm=llm, artifacts=artifacts,
            tracker=tracker, facts=facts,
            discovery=DiscoveryActivities(
                store, runs=DiscoveryRunLog(store, clock), sources=sources,
                gateway=lambda: PolitenessGateway(user_agent), clock=clock, policy_override=discovery_policy,
                search=search or config.search.filters,
                broad_boards=lambda: (
                    load_config().discovery.broad_boards if broad_boards is None else broad_boards
                ),
                board_scraper=board_scraper,
            ),
            enrichment=EnrichmentActivities(
                store, targets=facts.enrichment_targets, fetcher=fetcher, tracker=tracker, clock=clock
            ),
            scoring=ScoringActivities(
                store, llm=llm, descriptions=facts.description, profile=facts.scoring_profile,
                tracker=tracker, clock=clock, min_score=threshold,
            ),
            materials=MaterialsActivities(
                store, llm=llm, artifacts=artifacts, renderer=renderer, inputs=facts.materials_inputs,
                eligible=facts.eligible, tracker=tracker, clock=clock,
                render_lanes=config.worker.render_lanes if render_lanes is None else render_lanes,
                paper_size=paper,
            ),
            apply=ApplyActivities(
                store, inputs=facts.apply_inputs,
                candidates=lambda tenant, limit: facts.apply_candidates(
                    tenant, min(limit, settings_store.load().apply_concurrency)
                ),
                policy=lambda: claim_policy(float(threshold()), settings_store.load()),
                browser=browser or managed_browser,  # type: ignore[arg-type]
                clock=clock, model=llm.model if hasattr(llm, "model") else "llm",
                email_sender=smtp_sender_from(settings_store.load), artifacts=ResumePdfReader(artifacts),
            ),
            preparation=PreparationStateActivities(tracker, facts.pdf_ready),
            contact=ContactActivities(
                ContactServices(store=store, vault=PersonalDataVault(db), clock=clock, llm=llm),
                fetcher=contact_fetcher, allow_loopback=local,
            ),
        )  # fmt: skip

    @property
    def spend(self) -> SpendLedger:
        """The one ledger the LLM provider records into and the preflight reads (ADR 0110)."""
        return self.ledger

    def activities(self) -> list[ActivityFn]:
        return [
            self.discovery.plan_discovery_sources,
            self.discovery.discovery_source_family,
            self.enrichment.discovery_enrichment,
            self.scoring.score_job,
            self.materials.tailor_job,
            self.materials.cover_letter,
            self.materials.render_pdf,
            self.apply.apply,
            self.apply.recover_apply,
            self.preparation.load_preparation_checkpoint,
            self.preparation.recover_preparation_state,
            self.contact.run_contact_research,
        ]

    def close(self) -> None:
        self.materials.close()
        self.apply.close()
        close_llm = getattr(self.llm, "close", None)
        if callable(close_llm):
            close_llm()
