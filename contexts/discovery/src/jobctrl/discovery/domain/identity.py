"""Canonical job identity: canonical URL + ATS kind + source-native id, with a confidence.

| adapter supplied            | confidence | effect                                          |
|-----------------------------|------------|-------------------------------------------------|
| canonical URL + native id   | 0.9        | can auto-merge                                  |
| canonical URL only          | 0.6        | below 0.75: DuplicateJobLinkRejected, held      |
| posting URL only            | 0.3        | same                                            |
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.discovery.events import AtsKind

GLOBAL_ID_KINDS = frozenset({"greenhouse", "lever", "ashby"})
AUTO_MERGE_THRESHOLD = 0.75
CONFIDENCE_URL_AND_NATIVE_ID = 0.9
CONFIDENCE_URL_ONLY = 0.6
CONFIDENCE_POSTING_URL_ONLY = 0.3
CONFIDENCE_FINGERPRINT = 0.95
CONFIDENCE_SHINGLES = 0.85


@dataclass(frozen=True, slots=True)
class CanonicalIdentity:
    canonical_url: str
    ats_kind: AtsKind
    source_native_id: str  # "" when the adapter supplied none
    confidence: float

    @property
    def can_auto_merge(self) -> bool:
        return self.confidence >= AUTO_MERGE_THRESHOLD

    @property
    def native_key(self) -> tuple[str, str] | None:
        """Greenhouse, Lever and Ashby ids are unique per vendor; other ids (career-page
        identifiers, Workday requisitions) only within their site, so the host is part of the key."""
        if not self.source_native_id:
            return None
        if self.ats_kind in GLOBAL_ID_KINDS:
            return (self.ats_kind, self.source_native_id)
        return (self.ats_kind, f"{urlsplit(self.canonical_url).netloc}|{self.source_native_id}")


def resolve_identity(
    *, posting_url: str, canonical_url: str | None, native_id: str | None, ats_kind: AtsKind
) -> CanonicalIdentity:
    if canonical_url and native_id:
        return CanonicalIdentity(
            normalize_url(canonical_url), ats_kind, native_id, CONFIDENCE_URL_AND_NATIVE_ID
        )
    if canonical_url:
        return CanonicalIdentity(normalize_url(canonical_url), ats_kind, "", CONFIDENCE_URL_ONLY)
    return CanonicalIdentity(
        normalize_url(posting_url), ats_kind, native_id or "", CONFIDENCE_POSTING_URL_ONLY
    )
