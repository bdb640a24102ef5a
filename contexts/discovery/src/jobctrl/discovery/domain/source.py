"""The source registry entry (stream ``source-<sourceId>``): kind, crawl policy and state.

States: active, experimental, quarantined, disabled.  Every state change is a ``SourceStateChanged``
event carrying a bounded reason code.  A disabled source only comes back through an explicit
operator re-activation (reason ``operator``), never through an automatic recommendation.
"""

from __future__ import annotations

from jobctrl.discovery.domain.errors import InvalidSourceTransition
from jobctrl.discovery.domain.source_health import SourceRunOutcome, recommend
from jobctrl.discovery.events import (
    SourceConfigured,
    SourceCrawlRecorded,
    SourceKind,
    SourceRegistryEntryCreated,
    SourceRemoved,
    SourceState,
    SourceStateChanged,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.text import bounded_code

HISTORY = 20  # runs kept for the health recommendation (its widest window is 10)


class SourceEntry(Aggregate):
    stream_prefix = "source"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.registered = False
        self.kind: SourceKind | None = None
        self.policy_id = ""
        self.state: SourceState = "experimental"
        self.configuration: SourceConfigured | None = None  # None: registered by code, not by a user
        self.removed = False
        self.outcomes: list[SourceRunOutcome] = []  # oldest first, the last HISTORY runs
        self.crawled_runs: list[str] = []

    def register(self, *, kind: SourceKind, policy_id: str, state: SourceState, at: str) -> None:
        if self.registered:
            return
        self._record(
            SourceRegistryEntryCreated(
                source_id=self.id, kind=kind, policy_id=policy_id, state=state, created_at=at
            )
        )

    def change_state(self, *, to: SourceState, reason: str, at: str, operator: bool = False) -> bool:
        if not self.registered:
            raise InvalidSourceTransition(f"source {self.id} is not registered")
        if to == self.state:
            return False
        if self.state == "disabled" and not operator:
            raise InvalidSourceTransition("a disabled source is re-enabled only by an operator")
        self._record(
            SourceStateChanged(
                source_id=self.id,
                from_state=self.state,
                to_state=to,
                reason=bounded_code(reason),
                changed_at=at,
            )
        )
        return True

    def configure(self, configuration: SourceConfigured) -> bool:
        """Record what the user added; the same configuration again records nothing (and re-adding a
        removed source brings it back)."""
        if not self.registered:
            raise InvalidSourceTransition(f"source {self.id} is not registered")
        current = self.configuration
        if current is not None and not self.removed and _same(current, configuration):
            return False
        self._record(configuration)
        return True

    def remove(self, *, at: str) -> bool:
        if not self.registered or self.configuration is None:
            raise InvalidSourceTransition(f"source {self.id} was not added by a user")
        if self.removed:
            return False
        self._record(SourceRemoved(source_id=self.id, removed_at=at))
        return True

    def record_crawl(
        self, *, run_id: str, outcome: SourceRunOutcome, error_class: str | None, at: str
    ) -> bool:
        """Record how the source fared in ``run_id`` (once per run), then apply what its history
        recommends (quarantine, disable) as an automatic state change."""
        if not self.registered or run_id in self.crawled_runs:
            return False
        self._record(
            SourceCrawlRecorded(
                source_id=self.id, run_id=run_id, succeeded=outcome.succeeded,
                postings_seen=outcome.postings_seen, duplicates=outcome.duplicates, recorded_at=at,
                error_class=None if outcome.succeeded else bounded_code(error_class or "unclassified"),
            )
        )  # fmt: skip
        advice = recommend(self.state, self.outcomes)
        if advice is not None and not self.removed:
            self.change_state(to=advice.to_state, reason=advice.reason, at=at)
        return True

    @property
    def listed(self) -> bool:
        """A user's source that has not been removed."""
        return self.configuration is not None and not self.removed

    @property
    def runnable(self) -> bool:
        return not self.removed and self.state in ("active", "experimental")

    @applies(SourceConfigured)
    def _configured(self, event: SourceConfigured) -> None:
        self.configuration = event
        self.removed = False

    @applies(SourceCrawlRecorded)
    def _crawled(self, event: SourceCrawlRecorded) -> None:
        outcome = SourceRunOutcome(event.succeeded, event.postings_seen, event.duplicates)
        self.outcomes = [*self.outcomes, outcome][-HISTORY:]
        self.crawled_runs = [*self.crawled_runs, event.run_id][-HISTORY:]

    @applies(SourceRemoved)
    def _removed(self, event: SourceRemoved) -> None:
        self.removed = True

    @applies(SourceRegistryEntryCreated)
    def _created(self, event: SourceRegistryEntryCreated) -> None:
        self.registered = True
        self.kind = event.kind
        self.policy_id = event.policy_id
        self.state = event.state

    @applies(SourceStateChanged)
    def _changed(self, event: SourceStateChanged) -> None:
        self.state = event.to_state


def _same(a: SourceConfigured, b: SourceConfigured) -> bool:
    fields = (
        "family",
        "locator",
        "board",
        "employer",
        "base_url",
        "api_base",
        "title_filters",
        "location_filters",
        "keywords",
        "locations",
        "results_wanted",
        "hours_old",
    )
    return all(getattr(a, f) == getattr(b, f) for f in fields)
