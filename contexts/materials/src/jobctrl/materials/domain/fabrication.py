"""The fabrication gate: every checkable claim in model-written text must trace to cited evidence.

A *claim* is a number, a date, a job title, an employer or a named technology.  The gate finds them
with deterministic patterns (no model in the loop: a model must not grade its own homework) and
checks each against the evidence of the facts the line cites (``Evidence``).  Anything it cannot
trace is returned as an ``UnsupportedClaim``; callers fail closed on any.

Extraction runs in a fixed order and masks what it has classified, so a year is a date and not a
number, and "Staff Engineer" is a title and not an employer:
dates → known technologies → titles → technology-shaped tokens → numbers → other proper nouns.
Proper nouns after an employer cue ("at", "for", "joined", ...) or with an organisation suffix count as
employers; every other unexplained proper noun is treated as a named technology/product.  The first word
of a sentence is not treated as a proper noun unless a pattern above recognised it.

Known limits (documented in ADR 0031): numbers are compared by value, not unit ("40%" is supported by
"40 ms"); spelled numbers only from two to twenty; lower-case product names outside the lexicon pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from jobctrl.materials.domain.evidence import Evidence, EvidenceIndex, normalise
from jobctrl.materials.domain.profile import CandidateProfile


class ClaimKind(StrEnum):
    NUMBER = "number"
    DATE = "date"
    TITLE = "title"
    EMPLOYER = "employer"
    TECHNOLOGY = "technology"


@dataclass(frozen=True)
class UnsupportedClaim:
    kind: ClaimKind
    token: str


# Lower-case names of technologies the gate recognises even at the start of a sentence.
TECH_LEXICON: frozenset[str] = frozenset(
    """
    python java javascript typescript golang go rust ruby scala kotlin swift php perl haskell elixir
    erlang clojure c++ c# f# julia matlab bash sql nosql graphql grpc rest html css sass django
    flask fastapi rails spring react angular vue svelte next.js node.js express .net jquery postgresql
    postgres mysql mariadb sqlite oracle mongodb redis cassandra dynamodb elasticsearch opensearch
    clickhouse snowflake bigquery redshift kafka rabbitmq pulsar nats spark hadoop flink airflow dbt
    pandas numpy pytorch tensorflow keras scikit-learn docker kubernetes helm terraform ansible puppet
    chef jenkins gitlab github circleci argo prometheus grafana datadog splunk sentry nginx linux unix
    windows macos ios android aws gcp azure lambda s3 ec2 ecs eks gke cloudflare heroku vercel temporal
    celery webassembly llvm cuda opencv tableau looker excel salesforce sap
    """.split()  # noqa: SIM905 - a word list reads better as text
)
# Lexicon entries that are also everyday words ("go live", "the rest", "excel at"): they count as a
# technology only when capitalised.
_EVERYDAY = frozenset(
    """
    go rest express spring chef lambda windows excel oracle rails temporal spark
    react swift puppet pulsar argo helm sentry looker nats julia
    """.split()  # noqa: SIM905
)
_ACRONYM_ALLOW = frozenset({"I", "API", "APIS", "UI", "UX", "QA", "IT", "HR", "US", "UK", "EU", "OK", "CV"})
_COMMON_CAPITALISED = frozenset({"i", "i'm", "i've", "i'd", "i'll", "dear", "sincerely", "regards"})
_LEADING_FILLER = frozenset({"as", "a", "an", "the", "our", "my", "i", "was", "former", "now"})
_EMPLOYER_CUES = frozenset({"at", "for", "with", "join", "joined", "joining", "from", "by", "within"})
_ORG_SUFFIX = re.compile(
    r"\b(inc|corp|corporation|llc|ltd|gmbh|labs|bank|group|technologies|systems)\b", re.I
)
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MONTH_NAMES = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]  # fmt: skip
_MONTH_YEAR = re.compile(rf"\b{_MONTH}\.?\s+((?:19|20)\d{{2}})\b", re.I)
_ISO_MONTH = re.compile(r"\b((?:19|20)\d{2})-(0[1-9]|1[0-2])\b")
_YEAR = re.compile(r"(?<![\w.$,])(?:19|20)\d{2}(?![\w%]|[.,]\d)")
_MONTH_ALONE = re.compile(
    r"\b(?:January|February|March|April|June|July|August|September|October|November|December)\b"
)
_SENIORITY = r"(?:senior|sr\.?|staff|principal|lead|junior|jr\.?|chief|head|associate|distinguished)"
_ROLE = (
    r"(?:engineer|developer|manager|director|architect|scientist|analyst|designer|consultant|officer"
    r"|administrator|programmer|researcher)"
)
_TITLE_PATTERNS = (
    re.compile(rf"\b(?:{_SENIORITY}\s+)+(?:[a-z-]+\s+){{0,2}}{_ROLE}\b(?:\s+(?:i|ii|iii|iv))?", re.I),
    re.compile(rf"\b(?:[A-Z][a-z-]+\s+){{1,3}}(?:{'|'.join(r.title() for r in _ROLE[3:-1].split('|'))})\b"),
    re.compile(r"\b(?:CTO|CEO|CIO|CFO|COO|VP|SVP|EVP)\b"),
)
_TECH_SHAPED = re.compile(
    r"(?<![\w.])(?:"
    r"[A-Za-z][A-Za-z0-9]*[+#]+"  # C++, C#, F#
    r"|\.?[A-Za-z][A-Za-z0-9]*\.(?:js|net|io|py)\b"  # Node.js, .NET
    r"|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*"  # internal capitals: PostgreSQL, gRPC, iOS
    r"|[A-Za-z]+\d+[A-Za-z0-9]*"  # letters then digits: EC2, S3, K8s
    r"|[A-Z]{2,6}s?"  # acronyms: AWS, GCP
    r")(?![\w+#])"
)
_NUMBER = re.compile(r"(?<![\w.])[$€£]?(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s?(k|m|mm|bn|b)\b)?(?!\.?\d)", re.I)
_SCALE = {"k": 1_000, "m": 1_000_000, "mm": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000}
_SPELLED = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
    if i >= 2
}
_SPELLED_RE = re.compile(r"\b(" + "|".join(_SPELLED) + r")\b", re.I)
# A full stop inside a word ("Node.js", "U.S") keeps it going; one before a space ends the phrase,
# so "at Globex. Could we" is the employer "Globex", not "Globex. Could" (ADR 0276).
_PROPER_WORD = r"[A-Z](?:[\w&'-]|\.(?=\w))*"
_PROPER = re.compile(rf"(?<![\w']){_PROPER_WORD}(?:\s+(?:&\s+)?{_PROPER_WORD})*\.?")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;•\-\u2013\u2014(\"“]\s*|\n\s*)$")


def _value(m: re.Match[str]) -> Decimal:
    """``$1.2M`` and ``1,200,000`` are the same claim: compare scaled values."""
    return Decimal(m.group(1).replace(",", "")) * _SCALE.get((m.group(2) or "").lower(), 1)


def _numbers_in(text: str) -> set[Decimal]:
    found = {_value(m) for m in _NUMBER.finditer(text)}
    return found | {Decimal(_SPELLED[m.group(1).lower()]) for m in _SPELLED_RE.finditer(text)}


class _Scanner:
    """Holds the text with already-classified spans blanked out."""

    def __init__(self, text: str, evidence: Evidence) -> None:
        self.text = text
        self.evidence = evidence
        self.unsupported: list[UnsupportedClaim] = []

    def take(
        self, pattern: re.Pattern[str], keep: Callable[[str], bool] | None = None
    ) -> list[re.Match[str]]:
        """Matches of ``pattern`` (those ``keep`` accepts), blanked out of the text for later passes."""
        matches = [m for m in pattern.finditer(self.text) if keep is None or keep(m.group(0))]
        for m in matches:
            self.text = self.text[: m.start()] + " " * (m.end() - m.start()) + self.text[m.end() :]
        return matches

    def flag(self, kind: ClaimKind, token: str) -> None:
        claim = UnsupportedClaim(kind, token.strip())
        if claim not in self.unsupported:
            self.unsupported.append(claim)


def unsupported_claims(text: str, evidence: Evidence, exempt: Iterable[str] = ()) -> list[UnsupportedClaim]:
    """Every claim in ``text`` that ``evidence`` does not support (``exempt`` phrases are skipped)."""
    for phrase in sorted((p for p in exempt if p.strip()), key=len, reverse=True):
        text = re.sub(re.escape(phrase), lambda m: " " * len(m.group(0)), text, flags=re.I)
    scan = _Scanner(text, evidence)
    _dates(scan)
    _known_technologies(scan)
    _titles(scan)
    for m in scan.take(_TECH_SHAPED):
        token = m.group(0)
        if token.rstrip("s").upper() in _ACRONYM_ALLOW or token.upper() in _ACRONYM_ALLOW:
            continue
        if not evidence.mentions(token):
            scan.flag(ClaimKind.TECHNOLOGY, token)
    _numbers(scan)
    _proper_nouns(scan)
    return scan.unsupported


def unsupported_profile_claims(
    text: str, profile: CandidateProfile, exempt: Iterable[str] = ()
) -> list[UnsupportedClaim]:
    """The same gate over a text that cites no facts (an outreach message): the whole profile is its
    evidence (ADR 0275)."""
    return unsupported_claims(text, EvidenceIndex(profile).for_profile(), exempt)


def _dates(scan: _Scanner) -> None:
    for m in scan.take(_MONTH_YEAR):
        month = next(n for n in _MONTH_NAMES if n.startswith(m.group(0)[:3].lower()))
        if not scan.evidence.mentions(f"{month} {m.group(1)}"):
            scan.flag(ClaimKind.DATE, m.group(0))
    for m in scan.take(_ISO_MONTH):
        month = _MONTH_NAMES[int(m.group(2)) - 1]
        if not scan.evidence.mentions(f"{month} {m.group(1)}"):
            scan.flag(ClaimKind.DATE, m.group(0))
    for m in scan.take(_YEAR):
        if not scan.evidence.mentions(m.group(0)):
            scan.flag(ClaimKind.DATE, m.group(0))
    for m in scan.take(_MONTH_ALONE):
        if not scan.evidence.mentions(m.group(0)):
            scan.flag(ClaimKind.DATE, m.group(0))


_WORD = re.compile(r"(?<![\w.+#])\.?[A-Za-z][\w.+#-]*(?<![.-])")


def _known_technologies(scan: _Scanner) -> None:
    def is_technology(word: str) -> bool:
        name = normalise(word)
        return name in TECH_LEXICON and (name not in _EVERYDAY or word[0].isupper())

    for m in scan.take(_WORD, keep=is_technology):
        if not scan.evidence.mentions(m.group(0)):
            scan.flag(ClaimKind.TECHNOLOGY, m.group(0))


def _titles(scan: _Scanner) -> None:
    for pattern in _TITLE_PATTERNS:
        for m in scan.take(pattern):
            # "As Software Engineer": the capitalised pattern may start on a sentence's first word.
            words = m.group(0).split()
            while len(words) > 1 and words[0].lower() in _LEADING_FILLER:
                words = words[1:]
            phrase = normalise(" ".join(words))
            if not (scan.evidence.mentions(phrase) or any(phrase in t for t in scan.evidence.titles)):
                scan.flag(ClaimKind.TITLE, " ".join(words))


def _numbers(scan: _Scanner) -> None:
    supported = _numbers_in(scan.evidence.text)
    for m in scan.take(_NUMBER):
        if _value(m) not in supported:
            scan.flag(ClaimKind.NUMBER, m.group(0))
    for m in scan.take(_SPELLED_RE):
        if Decimal(_SPELLED[m.group(1).lower()]) not in supported:
            scan.flag(ClaimKind.NUMBER, m.group(0))


def _proper_nouns(scan: _Scanner) -> None:
    for m in _PROPER.finditer(scan.text):
        words = m.group(0).split()
        start = m.start()
        if _SENTENCE_START.search(scan.text[:start]):
            # The first word of a sentence is capitalised anyway; judge only what follows it.
            start += len(words[0]) + 1
            words = words[1:]
        words = [w for w in words if w.lower().strip(".'") not in _COMMON_CAPITALISED]
        if not words:
            continue
        phrase = " ".join(words).rstrip(".'")
        if scan.evidence.mentions(phrase) or all(scan.evidence.mentions(w.rstrip(".'")) for w in words):
            continue
        before = scan.text[:start].split()
        cue = bool(before) and before[-1].lower() in _EMPLOYER_CUES
        kind = ClaimKind.EMPLOYER if cue or _ORG_SUFFIX.search(phrase) else ClaimKind.TECHNOLOGY
        scan.flag(kind, phrase)
