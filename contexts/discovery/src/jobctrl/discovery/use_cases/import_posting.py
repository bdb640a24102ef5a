"""One job from a URL (ADR 0220): fetch the posting a pasted URL names, dedupe it, record it.

The URL's family is recognised by ``locate_posting`` (Greenhouse, Lever, Ashby, Workday,
SmartRecruiters, Workable, Recruitee, Personio); any other URL is read by the smart extractor's page
reader (schema.org ``JobPosting`` JSON-LD, else the page's main text, marked as such: ADR 0221).
Every request goes through the one politeness gateway under the family's crawl policy: the SSRF
guard, per-host pacing, a request budget of its own, robots where the policy honours them (pages
always).  Workday reads the posting's CXS detail; the other ATS families read their public board and
pick the posting the URL names (their APIs have no common one-posting endpoint).

Everything is fetched before anything is written, so each refusal writes nothing:
``unsupported_url`` (not an importable URL), ``posting_unreachable`` (network trouble, 4xx/5xx, a
malformed answer), ``robots_disallowed``, ``unsafe_destination``, ``not_a_posting`` (the answer names
no such posting).  The posting then takes the observation path every discovered posting takes
(identity, dedupe, ``record_observation``) with a run id derived from the URL, so importing the same
URL again records nothing new and answers the existing job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig, check_status, parse_json
from jobctrl.discovery.adapters.registry import adapter_for
from jobctrl.discovery.adapters.smartextract import postings_on_page
from jobctrl.discovery.adapters.workday import cxs_root, parse_detail
from jobctrl.discovery.domain.dedupe import Verdict
from jobctrl.discovery.domain.posting_url import PostingLocator, locate_posting
from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.discovery.use_cases.load_catalog import load_catalog
from jobctrl.discovery.use_cases.record_observation import record_observation
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError, SourceUnavailableError, TransientNetworkError
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id, new_job_id
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

PolicyOverride = Callable[[CrawlPolicy], CrawlPolicy]


class PostingUnreachable(JobCtrlError):
    """The posting's host could not be read (network trouble, an error status, a malformed answer)."""

    code = "posting_unreachable"
    retryable = True


class NotAPosting(JobCtrlError):
    """The URL was read, but it names no job posting (no such posting on the board, no JobPosting
    data on the page)."""

    code = "not_a_posting"
    retryable = False


@dataclass(frozen=True, slots=True)
class ImportedPosting:
    job_id: str
    created: bool  # False: the posting was a job we already had (observed again, or nothing new)
    verdict: str
    family: str
    source_id: str
    title: str
    employer: str


@dataclass(frozen=True, slots=True)
class FetchedPosting:
    posting: ObservedPosting
    family: str


def _config(locator: PostingLocator) -> SourceConfig:
    spec = locator.spec
    return SourceConfig(
        spec.source_id, spec.ats_kind, spec.board, spec.employer, spec.base_url, family=spec.family
    )


async def _read_page(
    gateway: PolitenessGateway, locator: PostingLocator, policy: CrawlPolicy, budget: RequestBudget
) -> ObservedPosting | None:
    response = await gateway.get(locator.url, policy, budget, headers={"Accept": "text/html"})
    check_status(response)
    found = postings_on_page(
        response.content.decode("utf-8", errors="replace"), locator.url, _config(locator), readable=True
    )
    return found[0] if found else None


async def _read_workday(
    gateway: PolitenessGateway, locator: PostingLocator, policy: CrawlPolicy, budget: RequestBudget
) -> ObservedPosting | None:
    config = _config(locator)
    root, _tenant, site = cxs_root(config)
    response = await gateway.get(
        f"{root}{locator.path}", policy, budget, headers={"Accept": "application/json"}
    )
    if response.status_code in (404, 410):
        return None
    check_status(response)
    summary = {"externalPath": locator.path, "title": ""}
    return parse_detail(parse_json(response, "workday detail"), summary, config, f"{config.base_url}/{site}")


async def _read_board(
    gateway: PolitenessGateway, locator: PostingLocator, policy: CrawlPolicy, budget: RequestBudget
) -> ObservedPosting | None:
    fetch, _policy = adapter_for(locator.family)
    for posting in await fetch(gateway, _config(locator), policy, budget):
        if locator.names(native_id=posting.native_id, posting_url=posting.posting_url):
            return posting
    return None


async def fetch_posting(
    gateway: PolitenessGateway,
    url: str,
    *,
    api_base: str | None = None,
    policy_override: PolicyOverride | None = None,
) -> FetchedPosting:
    """The posting ``url`` names, or a typed error; reads only, writes nothing."""
    locator = locate_posting(url, api_base=api_base)
    if locator.family == "smartextract":
        read = _read_page
    else:
        read = _read_workday if locator.family == "workday" else _read_board
    policy = adapter_for(locator.family)[1]
    if policy_override is not None:
        policy = policy_override(policy)
    try:
        found = await read(gateway, locator, policy, RequestBudget.for_policy(policy))
    except (TransientNetworkError, SourceUnavailableError) as exc:
        raise PostingUnreachable(f"{locator.family}: {exc.code}: {exc.message}"[:300]) from None
    if found is None or not found.title.strip():
        raise NotAPosting(f"{url[:120]!r} names no job posting ({locator.family})")
    return FetchedPosting(found, locator.family)


def import_posting(
    store: EventStore,
    fetched: FetchedPosting,
    *,
    url: str,
    clock: Clock,
    new_id: Callable[[], str] = new_job_id,
    tenant_id: str = LOCAL_TENANT,
) -> ImportedPosting:
    """Record a fetched posting through the observation path (dedupe included)."""
    posting = replace(fetched.posting, extra={**fetched.posting.extra, "importedUrl": normalize_url(url)})
    run_id = deterministic_id("import-url", normalize_url(url))
    outcome = record_observation(
        store, load_catalog(store), posting, run_id=run_id, clock=clock, new_id=new_id, tenant_id=tenant_id
    )
    return ImportedPosting(
        outcome.job_id, outcome.verdict is Verdict.NEW, outcome.verdict.value, fetched.family,
        posting.source_id, posting.title, posting.employer,
    )  # fmt: skip
