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

from jobctrl.apply.domain.errors import ClaimRefused
from jobctrl.apply.events import ApplicationIdentityClaimed, RepeatApplicationOverrideGranted
from jobctrl.kernel.aggregate import Aggregate, applies

_NON_WORD = re.compile(r"[^0-9a-z]+")
_EMPLOYER_SUFFIXES = ("inc", "llc", "ltd", "gmbh", "corp", "corporation", "co", "company", "plc")

# v2 (ADR 0160): a wider set of legal forms, dropped wherever they trail the name.
_LEGAL_FORMS = frozenset(
    {
        "inc", "incorporated", "llc", "llp", "lp", "ltd", "limited", "gmbh", "mbh", "ag", "kg", "se",
        "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "ab", "as", "asa", "oy", "oyj", "pty", "pte",
        "plc", "corp", "corporation", "co", "company", "holdings", "group",
    }
)  # fmt: skip
# Role words that mean the same thing; each maps to one or more canonical words.
ROLE_ALIASES: dict[str, tuple[str, ...]] = {
    "eng": ("engineer",),
    "engr": ("engineer",),
    "engineers": ("engineer",),
    "sr": ("senior",),
    "snr": ("senior",),
    "jr": ("junior",),
    "jnr": ("junior",),
    "mgr": ("manager",),
    "mngr": ("manager",),
    "dev": ("developer",),
    "devs": ("developer",),
    "swe": ("software", "engineer"),
    "sde": ("software", "engineer"),
    "sw": ("software",),
    "ml": ("machine", "learning"),
    "ai": ("artificial", "intelligence"),
    "mle": ("machine", "learning", "engineer"),
    "sre": ("site", "reliability", "engineer"),
    "qa": ("quality", "assurance"),
    "ux": ("user", "experience"),
    "ui": ("user", "interface"),
    "pm": ("product", "manager"),
    "tpm": ("technical", "program", "manager"),
    "em": ("engineering", "manager"),
    "mgmt": ("management",),
    "ops": ("operations",),
    "infra": ("infrastructure",),
    "admin": ("administrator",),
    "assoc": ("associate",),
    "asst": ("assistant",),
    "dir": ("director",),
    "vp": ("vice", "president"),
    "svp": ("senior", "vice", "president"),
    "prin": ("principal",),
    "ii": ("2",),
    "iii": ("3",),
    "iv": ("4",),
}
_ROLE_NOISE = frozenset({"and", "of", "the", "a", "an", "for", "in", "at", "to"})


def _normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return " ".join(_NON_WORD.sub(" ", folded).split())


def legacy_identity_key(employer: str, role: str) -> str:
    """The v1 key (before ADR 0160): case, accents, punctuation and one trailing legal form only.

    Kept unchanged so identities already in a log keep their stream; a claim consults both keys.
    """
    words = _normalise(employer).split()
    while len(words) > 1 and words[-1] in _EMPLOYER_SUFFIXES:
        words.pop()
    material = f"{' '.join(words)}\x1f{_normalise(role)}"
    return hashlib.sha256(material.encode()).hexdigest()[:32]


def employer_tokens(employer: str) -> frozenset[str]:
    """The employer's words without trailing legal forms (a name that is only a legal form stays)."""
    # Dots go first, so a dotted form ("S.A.", "B.V.") reads as one word.
    words = _normalise(employer.replace(".", "").replace("&", " and ")).split()
    while len(words) > 1 and words[-1] in _LEGAL_FORMS:
        words.pop()
    return frozenset(w for w in words if w != "and" or len(words) == 1)


def role_tokens(role: str) -> frozenset[str]:
    """The role's words with aliases expanded, noise words dropped, order forgotten."""
    out: set[str] = set()
    for word in _normalise(role.replace("&", " and ")).split():
        if word in _ROLE_NOISE:
            continue
        out.update(ROLE_ALIASES.get(word, (word,)))
    return frozenset(out)


def identity_key(employer: str, role: str) -> str:
    """v2: the same employer token set and the same role token set give the same key (ADR 0160)."""
    material = "v2\x1e{}\x1f{}".format(
        " ".join(sorted(employer_tokens(employer))), " ".join(sorted(role_tokens(role)))
    )
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
        # What a v1 (legacy-keyed) stream of the same employer+role holds; read, never written.
        self.inherited = IdentityState()

    def inherit(self, legacy: ApplicationIdentity | None) -> None:
        if legacy is not None and legacy.id != self.id:
            self.inherited = legacy.state

    @property
    def claimed_by(self) -> set[str]:
        return self.state.claimed_by | self.inherited.claimed_by

    def open_override(self, job_id: str) -> str | None:
        return self.state.open_overrides.get(job_id) or (
            None if job_id in self.state.claimed_by else self.inherited.open_overrides.get(job_id)
        )

    def repeat_refusal(self, job_id: str) -> ClaimRefused | None:
        others = self.claimed_by - {job_id}
        if not others or job_id in self.claimed_by or self.open_override(job_id) is not None:
            return None
        return ClaimRefused("repeat_application")

    def claim(self, *, job_id: str, run_id: str, claimed_at: str) -> None:
        refusal = self.repeat_refusal(job_id)
        if refusal is not None:
            raise refusal
        override = None
        if self.claimed_by - {job_id} and job_id not in self.claimed_by:
            override = self.open_override(job_id)
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
        if self.open_override(job_id) is not None:
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
