"""The daily digest's acknowledgement: one ``DigestAcknowledgement`` stream per tenant.

Acknowledging records ``DigestReviewed`` (when the user reviewed it, and the acknowledgement it
replaces); the digest's "new since" counts start at the latest acknowledgement.
"""

from __future__ import annotations

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.orchestration.events import DigestReviewed


class DigestAcknowledgement(Aggregate):
    stream_prefix = "digest"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.acknowledged_at: str | None = None

    def acknowledge(self, *, at: str, reviewed_at: str) -> DigestReviewed:
        event = DigestReviewed(
            acknowledged_at=at, reviewed_at=reviewed_at, previous_acknowledged_at=self.acknowledged_at
        )
        self._record(event)
        return event

    @applies(DigestReviewed)
    def _on_reviewed(self, event: DigestReviewed) -> None:
        self.acknowledged_at = event.acknowledged_at
