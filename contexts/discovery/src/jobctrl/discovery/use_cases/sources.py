"""The user's sources: add, remove, list, and the catalog Discover runs (ADR 0150).

* ``add_source`` parses ``KIND TOKEN_OR_URL [name] [api_base]`` (``InvalidSourceSpec`` before
  anything is written), then records, on the source's registry stream in one save, the registry entry
  (kind, the family's crawl policy, ``active``) and a ``SourceConfigured`` fact.  Adding the same source
  again records nothing; adding it after a removal brings it back.
* ``remove_source`` records ``SourceRemoved`` (``UnknownSource`` for an id that was never added).
* ``list_sources`` are the sources users added and did not remove, with their registry state.
* ``registered_sources`` is what a Discover run may crawl: those sources as adapter configurations.
* ``import_sources`` registers a legacy ``sources.json`` catalog through the same path.

The registry streams are the one truth: the CLI, the API and the worker read them, never a file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.adapters.registry import adapter_for
from jobctrl.discovery.domain.broad_search import BroadBoardSearchSpec, InvalidBroadSearch
from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.discovery.domain.source_spec import (
    ATS_KIND_OF,
    SOURCE_KIND_OF,
    InvalidSourceSpec,
    SourceSpec,
    parse_source,
)
from jobctrl.discovery.events import SourceConfigured, SourceRemoved, SourceState
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import ConfigurationError, JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore

_TYPES = [SourceConfigured.event_type, SourceRemoved.event_type]


class UnknownSource(JobCtrlError):
    code = "unknown_source"
    retryable = False


@dataclass(frozen=True, slots=True)
class SourceView:
    source_id: str
    family: str
    locator: str
    board: str
    name: str
    base_url: str
    api_base: str | None
    state: SourceState
    policy_id: str
    title_filters: tuple[str, ...] = ()
    location_filters: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    results_wanted: int | None = None
    hours_old: int | None = None

    @property
    def robots(self) -> str:
        """How robots.txt applies to the source: honoured, exempt (a documented public API), or not
        applicable because a library owns the HTTP (broad boards, ADR 0285)."""
        if self.family == "jobspy":
            return "not_gated_library_owns_http"
        return "honoured" if adapter_for(self.family)[1].honor_robots else "exempt_public_api"

    def as_config(self) -> SourceConfig:
        return SourceConfig(
            source_id=self.source_id,
            ats_kind=ATS_KIND_OF.get(self.family, "other"),
            board=self.board,
            employer=self.name,
            base_url=self.base_url,
            title_filters=self.title_filters,
            location_filters=self.location_filters,
            family=self.family,
            keywords=self.keywords,
            locations=self.locations,
            results_wanted=self.results_wanted,
            hours_old=self.hours_old,
        )


@dataclass(frozen=True, slots=True)
class AddedSource:
    source: SourceView
    created: bool  # False: the same source was already there (nothing written)


def _policy_for(spec: SourceSpec) -> str:
    try:
        _fetch, policy = adapter_for(spec.family)
    except ConfigurationError:
        raise InvalidSourceSpec(f"source kind {spec.family!r} has no adapter in this build") from None
    return policy.name


def add_source(
    store: EventStore,
    kind: str,
    locator: str,
    *,
    clock: Clock,
    name: str | None = None,
    api_base: str | None = None,
    tenant_id: str = LOCAL_TENANT,
    keywords: Sequence[str] = (),
    locations: Sequence[str] = (),
    results_wanted: int | None = None,
    hours_old: int | None = None,
) -> AddedSource:
    """Add a source; a broad-board source (``jobspy``) also takes its search: keywords (at least one),
    locations, results wanted per search unit and the oldest posting in hours (ADR 0285)."""
    search = None
    if keywords or locations or results_wanted is not None or hours_old is not None:
        try:
            search = BroadBoardSearchSpec.parse(tuple(keywords), tuple(locations), results_wanted, hours_old)
        except InvalidBroadSearch as exc:
            raise InvalidSourceSpec(exc.message) from None
    spec = parse_source(kind, locator, name=name, api_base=api_base, search=search)
    policy_id = _policy_for(spec)
    repo = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    entry = repo.load(spec.source_id) or SourceEntry(spec.source_id)
    at = isoformat(clock.now())
    entry.register(kind=spec.source_kind, policy_id=policy_id, state="active", at=at)
    changed = entry.configure(
        _with_search(spec.search)(
            source_id=spec.source_id,
            family=spec.family,
            locator=spec.locator,
            board=spec.board,
            employer=spec.employer,
            base_url=spec.base_url,
            configured_at=at,
            api_base=spec.api_base,
        )
    )
    if entry.pending_events:
        repo.save(entry)
    return AddedSource(_view(entry), changed)


def _with_search(search: BroadBoardSearchSpec | None) -> Callable[..., SourceConfigured]:
    """``SourceConfigured`` with the broad-board search's fields filled in (none for other families)."""
    if search is None:
        return SourceConfigured
    return partial(
        SourceConfigured,
        keywords=list(search.keywords),
        locations=list(search.locations),
        results_wanted=search.results_wanted,
        hours_old=search.hours_old,
    )


def remove_source(store: EventStore, source_id: str, *, clock: Clock, tenant_id: str = LOCAL_TENANT) -> bool:
    """True when removed now; False when it was already removed."""
    repo = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    try:
        entry = repo.load(source_id)
    except JobCtrlError:
        entry = None  # an id that is not even a safe stream id was never added
    if entry is None or entry.configuration is None:
        raise UnknownSource(f"no source {source_id[:120]!r} was added")
    if not entry.remove(at=isoformat(clock.now())):
        return False
    repo.save(entry)
    return True


def _view(entry: SourceEntry) -> SourceView:
    c = entry.configuration
    assert c is not None
    return SourceView(
        c.source_id, c.family, c.locator, c.board, c.employer, c.base_url, c.api_base, entry.state,
        entry.policy_id, tuple(c.title_filters), tuple(c.location_filters), tuple(c.keywords),
        tuple(c.locations), c.results_wanted, c.hours_old,
    )  # fmt: skip


def _user_source_ids(store: EventStore) -> list[str]:
    ids: dict[str, None] = {}
    after = 0
    while True:
        rows = store.read_all(after=after, limit=2000, types=_TYPES)
        if not rows:
            return list(ids)
        for row in rows:
            ids.setdefault(row.stream_id.removeprefix("source-"), None)
        after = rows[-1].position


def list_sources(store: EventStore) -> list[SourceView]:
    """Every source a user added and did not remove, in the order they were first added."""
    repo = AggregateRepository.for_class(store, SourceEntry)
    views = []
    for source_id in _user_source_ids(store):
        entry = repo.load(source_id)
        if entry is not None and entry.listed:
            views.append(_view(entry))
    return views


def registered_sources(store: EventStore) -> list[SourceConfig]:
    """The catalog Discover runs: the users' sources (runnable or not: the plan filters by state)."""
    return [v.as_config() for v in list_sources(store)]


def import_sources(
    store: EventStore, configs: Sequence[SourceConfig], *, clock: Clock, tenant_id: str = LOCAL_TENANT
) -> int:
    """Register a legacy catalog (``sources.json``) as user sources; returns how many were new.  Each
    keeps its id and configuration; an id already configured is left as it is."""
    policies = [adapter_for(c.family_name)[1] for c in configs]  # every family known before any write
    repo = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    created = 0
    for config, policy in zip(configs, policies, strict=True):
        entry = repo.load(config.source_id) or SourceEntry(config.source_id)
        if entry.configuration is not None:
            continue
        at = isoformat(clock.now())
        entry.register(
            kind=SOURCE_KIND_OF.get(config.family_name, "ats_api"),
            policy_id=policy.name,
            state="active",
            at=at,
        )
        entry.configure(
            SourceConfigured(
                source_id=config.source_id,
                family=config.family_name,
                locator=config.board,
                board=config.board,
                employer=config.employer,
                base_url=config.base_url,
                configured_at=at,
                api_base=config.base_url,
                title_filters=list(config.title_filters),
                location_filters=list(config.location_filters),
                keywords=list(config.keywords),
                locations=list(config.locations),
                results_wanted=config.results_wanted,
                hours_old=config.hours_old,
            )
        )
        repo.save(entry)
        created += 1
    return created
