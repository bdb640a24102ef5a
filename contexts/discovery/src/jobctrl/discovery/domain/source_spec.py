"""What a user types to add a source (``KIND TOKEN_OR_URL [--name N] [--api-base URL]``), parsed into
one value: the family whose adapter crawls it, the board it names, where its API lives.

Every family has a token or URL form and a public default API host; ``api_base`` overrides the host
(a local server standing in for the vendor).  Bad input raises ``InvalidSourceSpec`` (not retryable)
before anything is written.  Identity kinds stay the dedupe key's five (``workday``, ``greenhouse``,
``lever``, ``ashby``, ``other``): the other ATS vendors' ids are unique only per site, which is how
``other`` ids are keyed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args
from urllib.parse import urlsplit

from jobctrl.discovery.domain.broad_search import BroadBoardSearchSpec
from jobctrl.discovery.events import AtsKind, SourceKind
from jobctrl.kernel.errors import JobCtrlError

SourceFamily = Literal[
    "greenhouse",
    "lever",
    "ashby",
    "careers",
    "workday",
    "smartrecruiters",
    "workable",
    "recruitee",
    "personio",
    "jobspy",
    "smartextract",
]
FAMILIES: tuple[str, ...] = get_args(SourceFamily)

#: Which identity kind each family's postings carry.
ATS_KIND_OF: dict[str, AtsKind] = {
    "greenhouse": "greenhouse",
    "lever": "lever",
    "ashby": "ashby",
    "workday": "workday",
}

#: The source registry's kind of each family.
SOURCE_KIND_OF: dict[str, SourceKind] = {
    "careers": "employer_careers_page",
    "jobspy": "broad_board",
    "smartextract": "smart_extract",
}

#: Where each family's public API lives when no ``api_base`` is given ("{token}" is the board).
DEFAULT_API_BASES: dict[str, str] = {
    "greenhouse": "https://boards-api.greenhouse.io",
    "lever": "https://api.lever.co",
    "ashby": "https://api.ashbyhq.com",
    "smartrecruiters": "https://api.smartrecruiters.com",
    "workable": "https://apply.workable.com",
    "recruitee": "https://{token}.recruitee.com",
    "personio": "https://{token}.jobs.personio.de",
}

#: Public board URLs a user may paste instead of a token: family → pattern with a ``token`` group.
BOARD_URL_PATTERNS: dict[str, re.Pattern[str]] = {
    "greenhouse": re.compile(r"^(?:job-)?boards(?:-api)?\.greenhouse\.io$"),
    "lever": re.compile(r"^jobs\.lever\.co$"),
    "ashby": re.compile(r"^jobs\.ashbyhq\.com$"),
    "smartrecruiters": re.compile(r"^(?:jobs|careers)\.smartrecruiters\.com$"),
    "workable": re.compile(r"^apply\.workable\.com$"),
}
_SUBDOMAIN_HOSTS: dict[str, re.Pattern[str]] = {
    "recruitee": re.compile(r"^(?P<token>[a-z0-9-]+)\.recruitee\.com$"),
    "personio": re.compile(r"^(?P<token>[a-z0-9-]+)\.jobs\.personio\.(?:de|com)$"),
}
_WORKDAY_HOST = re.compile(r"^(?P<tenant>[a-z0-9-]+)\.(?P<dc>wd\d+)\.myworkdayjobs\.com$")
#: The hosts that name a family by subdomain, and Workday's host (a pasted posting URL is recognised
#: by them: ``posting_url``).
SUBDOMAIN_HOSTS = _SUBDOMAIN_HOSTS
WORKDAY_HOST = _WORKDAY_HOST
#: The boards JobSpy searches (``jobspy.model.Site``), named as it names them.
BROAD_BOARD_SITES = (
    "indeed", "linkedin", "zip_recruiter", "glassdoor", "google", "bayt", "naukri", "bdjobs", "hellowork",
)  # fmt: skip
_LOCALE = re.compile(r"^[a-z]{2}(?:-[A-Za-z]{2})?$")
_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$")
_SLUG = re.compile(r"[^A-Za-z0-9_.:-]+")


class InvalidSourceSpec(JobCtrlError):
    """A source to add is malformed (unknown kind, bad token or URL, bad API base); nothing is written."""

    code = "invalid_source"
    retryable = False


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """A parsed source: ``board`` is the family's own key (a board token, ``tenant/site`` for Workday,
    a path for careers pages, a comma list of sites for broad boards)."""

    source_id: str
    family: SourceFamily
    locator: str  # what the user typed (token or URL), trimmed
    board: str
    employer: str
    base_url: str  # where requests go: the api_base, else the vendor's public host
    api_base: str | None = None
    search: BroadBoardSearchSpec | None = None  # broad boards only

    @property
    def ats_kind(self) -> AtsKind:
        return ATS_KIND_OF.get(self.family, "other")

    @property
    def source_kind(self) -> SourceKind:
        return SOURCE_KIND_OF.get(self.family, "ats_api")


def _fail(message: str) -> InvalidSourceSpec:
    return InvalidSourceSpec(message)


def _check_api_base(api_base: str | None) -> str | None:
    if api_base is None or api_base == "":
        return None
    parts = urlsplit(api_base.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(f"--api-base must be an http(s) URL, got {api_base[:120]!r}")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise _fail("--api-base takes no query, fragment or credentials")
    return api_base.strip().rstrip("/")


def _check_token(token: str, what: str) -> str:
    if not _TOKEN.fullmatch(token):
        raise _fail(f"{what} must be letters, digits, '_', '.' or '-' (at most 120), got {token[:60]!r}")
    return token


def _url_parts(locator: str) -> tuple[str, str, list[str]]:
    parts = urlsplit(locator)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(f"not an http(s) URL: {locator[:120]!r}")
    segments = [s for s in parts.path.split("/") if s]
    return f"{parts.scheme}://{parts.netloc.lower()}", parts.hostname.lower(), segments


def _board_token(family: str, locator: str) -> str:
    """A token, or a pasted public board URL reduced to its token."""
    if "://" not in locator:
        return _check_token(locator, f"a {family} board token")
    _origin, host, segments = _url_parts(locator)
    sub = _SUBDOMAIN_HOSTS.get(family)
    if sub is not None and (m := sub.fullmatch(host)):
        return _check_token(m.group("token"), f"a {family} company")
    pattern = BOARD_URL_PATTERNS.get(family)
    if pattern is not None and pattern.fullmatch(host) and segments:
        skip = {"v1", "boards", "v0", "postings", "posting-api", "job-board", "embed", "job_board"}
        tokens = [s for s in segments if s not in skip]
        if tokens:
            return _check_token(tokens[0], f"a {family} board token")
    raise _fail(f"{locator[:120]!r} is not a {family} board URL; give the board token instead")


def _workday(locator: str) -> tuple[str, str]:
    """``https://{tenant}.wd{N}.myworkdayjobs.com/[{locale}/]{site}`` → (origin, "tenant/site")."""
    origin, host, segments = _url_parts(locator)
    match = _WORKDAY_HOST.fullmatch(host)
    if match is None:
        raise _fail(
            f"a Workday source is https://{{tenant}}.wd{{N}}.myworkdayjobs.com/{{site}}, got {host!r}"
        )
    if segments and _LOCALE.fullmatch(segments[0]) and len(segments) > 1:
        segments = segments[1:]
    if not segments:
        raise _fail("a Workday careers URL names its site: https://{tenant}.wdN.myworkdayjobs.com/{site}")
    site = _check_token(segments[0], "a Workday site")
    tenant = _check_token(match.group("tenant"), "a Workday tenant")
    return origin, f"{tenant}/{site}"


def _slug(value: str) -> str:
    return _SLUG.sub("-", value).strip("-")[:150] or "source"


def parse_source(
    kind: str,
    locator: str,
    *,
    name: str | None = None,
    api_base: str | None = None,
    search: BroadBoardSearchSpec | None = None,
) -> SourceSpec:
    """Parse what the user typed; raise ``InvalidSourceSpec`` for anything that cannot be crawled.  A
    broad-board source (``jobspy``) needs its ``search``; no other family takes one."""
    family = kind.strip().lower().replace("-", "").replace("_", "")
    aliases = {"careerspage": "careers", "careerpage": "careers", "smart": "smartextract", "broad": "jobspy"}
    family = aliases.get(family, family)
    if family not in FAMILIES:
        raise _fail(f"unknown source kind {kind[:40]!r}; one of: {', '.join(FAMILIES)}")
    locator = (locator or "").strip()
    if not locator or len(locator) > 2000:
        raise _fail("a source needs a token or URL (at most 2000 characters)")
    if name is not None and (not name.strip() or len(name) > 200):
        raise _fail("--name must be 1 to 200 characters")
    base = _check_api_base(api_base)
    if search is not None and family != "jobspy":
        raise _fail("--keyword, --location, --results and --hours-old apply to broad boards (jobspy) only")
    if family == "workday":
        origin, board = _workday(locator)
        tenant = board.split("/")[0]
        return SourceSpec(
            f"workday-{_slug(board.replace('/', '-'))}", "workday", locator, board,
            (name or tenant).strip(), base or origin, base,
        )  # fmt: skip
    if family in ("careers", "smartextract"):
        origin, _host, segments = _url_parts(locator)
        path = "/" + "/".join(segments)
        if family == "careers":
            if len(segments) != 2 or segments[0] != "careers":
                raise _fail(
                    "a careers source is {site}/careers/{board}; use 'smartextract' for any other page"
                )
            board = _check_token(segments[1], "a careers board")
        else:
            board = path
        host = urlsplit(origin).hostname or "site"
        tail = f"{host}-{board}" if family == "careers" else host + path
        return SourceSpec(
            f"{'careers' if family == 'careers' else 'smart'}-{_slug(tail)}",
            family,  # type: ignore[arg-type]
            locator, board, (name or host).strip(), base or origin, base,
        )  # fmt: skip
    if family == "jobspy":
        sites = [s.strip().lower() for s in locator.split(",") if s.strip()]
        if not sites or any(s not in BROAD_BOARD_SITES for s in sites):
            raise _fail(
                "a broad-board source is a comma list of sites, e.g. indeed,linkedin,zip_recruiter"
                f" (one of: {', '.join(BROAD_BOARD_SITES)})"
            )
        if search is None:
            raise _fail("a broad-board source needs at least one --keyword")
        if base is not None:
            raise _fail(
                "a broad-board source has no --api-base: the JobSpy library reaches the boards itself"
            )
        board = ",".join(dict.fromkeys(sites))
        return SourceSpec(
            f"jobspy-{_slug(board.replace(',', '-'))}", "jobspy", locator, board,
            (name or "broad boards").strip(), "", None, search,
        )  # fmt: skip
    token = _board_token(family, locator)
    default = DEFAULT_API_BASES[family].format(token=token.lower())
    return SourceSpec(
        f"{family}-{_slug(token)}", family,  # type: ignore[arg-type]
        locator, token, (name or token).strip(), base or default, base,
    )  # fmt: skip
