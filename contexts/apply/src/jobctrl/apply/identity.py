"""Repeat-application protection: one ``ApplicationIdentity`` stream per employer + role.

A live claim reserves the identity in the same transaction as ``ApplyRunStarted``.  A different job
with the same identity is refused (it may be a repost or a duplicate listing of a role already applied
to) unless the user granted a one-use override for that job; the claim that uses it consumes it.
The stream key is a digest of the normalised names, so the log holds no employer or role text here.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

from jobctrl.apply.errors import ClaimRefused
from jobctrl.apply.events import ApplicationIdentityClaimed, RepeatApplicationOverrideGranted
from jobctrl.kernel.aggregate import Aggregate, applies

_NON_WORD = re.compile(r"[^0-9a-z]+")
_EMPLOYER_SUFFIXES = ("inc", "llc", "ltd", "gmbh", "corp", "corporation", "co", "company", "plc")


def _normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return " ".join(_NON_WORD.sub(" ", folded).split())


def identity_key(employer: str, role: str) -> str:
    """Same employer and role modulo case, accents, punctuation and a legal-form suffix → same key."""
    words = _normalise(employer).split()
    while len(words) > 1 and words[-1] in _EMPLOYER_SUFFIXES:
        words.pop()
    material = f"{' '.join(words)}\x1f{_normalise(role)}"
    return hashlib.sha256(material.encode()).hexdigest()[:32]


@dataclass
class IdentityState:
    claimed_by: set[str] = field(default_factory=set)  # job ids with a live claim on this identity
    open_overrides: dict[str, str] = field(default_factory=dict)  # job id -> unused override id


class ApplicationIdentity(Aggregate):
    stream_prefix = "apply-identity"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.state = IdentityState()

    def repeat_refusal(self, job_id: str) -> ClaimRefused | None:
        others = self.state.claimed_by - {job_id}
        if not others or job_id in self.state.claimed_by or job_id in self.state.open_overrides:
            return None
        return ClaimRefused("repeat_application")

    def claim(self, *, job_id: str, run_id: str, claimed_at: str) -> None:
        refusal = self.repeat_refusal(job_id)
        if refusal is not None:
            raise refusal
        override = None
        if self.state.claimed_by - {job_id} and job_id not in self.state.claimed_by:
            override = self.state.open_overrides[job_id]
        self._record(
            ApplicationIdentityClaimed(
                identity_key=self.id,
                job_id=job_id,
                run_id=run_id,
                override_id=override,
                claimed_at=claimed_at,
            )
        )

    def grant_override(self, *, job_id: str, override_id: str, reason_present: bool, granted_at: str) -> None:
        if job_id in self.state.open_overrides:
            return  # already granted and unused: granting twice changes nothing
        self._record(
            RepeatApplicationOverrideGranted(
                identity_key=self.id,
                job_id=job_id,
                override_id=override_id,
                reason_present=reason_present,
                granted_at=granted_at,
            )
        )

    @applies(ApplicationIdentityClaimed)
    def _on_claimed(self, event: ApplicationIdentityClaimed) -> None:
        self.state.claimed_by.add(event.job_id)
        if event.override_id is not None:
            self.state.open_overrides.pop(event.job_id, None)

    @applies(RepeatApplicationOverrideGranted)
    def _on_override(self, event: RepeatApplicationOverrideGranted) -> None:
        self.state.open_overrides[event.job_id] = event.override_id
