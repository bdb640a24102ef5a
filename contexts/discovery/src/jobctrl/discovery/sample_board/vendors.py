"""Vendor-shaped answers for the sample board and the family tests: the documented public posting APIs
of Workday (CXS), SmartRecruiters, Workable, Recruitee and Personio, built from sample postings.

Each ``install_*`` puts one employer's board on a ``LocalHttpServer`` in that vendor's shape (paging
included) and returns the path(s) a test can switch to a bad answer.  The shapes follow the vendors'
public documentation and examples; values are the sample's own.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from jobctrl.discovery.sample_board.postings import SamplePosting
from jobctrl.discovery.sample_board.server import LocalHttpServer, Route


def _html(text: str) -> str:
    return "".join(f"<p>{html.escape(s.strip())}.</p>" for s in text.split(". ") if s.strip())


def _city_country(location: str) -> tuple[str, str]:
    city, _, country = location.partition(", ")
    return city, country


# -- Workday (CXS) ---------------------------------------------------------------------------------
WORKDAY_PAGE = 20
WORKDAY_RESULT_CAP = 2000  # Workday serves no offset past the first 2,000 results of a search


def workday_external_path(p: SamplePosting) -> str:
    city = _city_country(p.location)[0].replace(" ", "-")
    return f"/job/{city}/{p.slug}_{p.native_id}"


def workday_summary(p: SamplePosting) -> dict[str, object]:
    return {
        "title": p.title,
        "externalPath": workday_external_path(p),
        "locationsText": p.location,
        "postedOn": "Posted 2 Days Ago",
        "bulletFields": [p.native_id],
    }


def workday_location_id(location: str) -> str:
    """The stand-in's id of a ``locations`` facet value (Workday's are opaque hex ids)."""
    return "loc-" + "".join(c if c.isalnum() else "-" for c in location.lower()).strip("-")


def workday_facets(posts: Sequence[SamplePosting]) -> list[dict[str, object]]:
    """The ``locations`` facet of a search, its values counted over the search's postings."""
    counts: dict[str, int] = {}
    for p in posts:
        counts[p.location] = counts.get(p.location, 0) + 1
    values = [{"descriptor": loc, "id": workday_location_id(loc), "count": n} for loc, n in counts.items()]
    return [{"facetParameter": "locations", "descriptor": "Locations", "values": values}]


def workday_page(
    posts: Sequence[SamplePosting], offset: int, limit: int, *, total_on_every_page: bool = False
) -> bytes:
    """One CXS page; like Workday, ``total`` only on the first page, and a page past the end answers
    the first page again."""
    limit = max(1, min(limit, WORKDAY_PAGE))
    start = offset if offset < len(posts) else 0
    chunk = posts[start : start + limit]
    total = len(posts) if offset == 0 or total_on_every_page else 0
    return json.dumps(
        {"total": total, "jobPostings": [workday_summary(p) for p in chunk], "facets": workday_facets(posts)}
    ).encode()


def workday_detail(base: str, site: str, p: SamplePosting) -> bytes:
    path = workday_external_path(p)
    return json.dumps(
        {
            "jobPostingInfo": {
                "id": f"wd-{p.native_id}",
                "title": p.title,
                "jobDescription": _html(p.description),
                "location": p.location,
                "postedOn": "Posted 2 Days Ago",
                "startDate": "2026-02-18",
                "timeType": "Full time",
                "jobReqId": p.native_id,
                "jobPostingId": p.slug,
                "externalUrl": f"{base}/{site}{path}",
                "canApply": True,
            },
            "hiringOrganization": {"name": p.employer, "url": ""},
            "similarJobs": [],
        }
    ).encode()


def install_workday(
    server: LocalHttpServer, base: str, tenant: str, site: str, posts: Sequence[SamplePosting]
) -> str:
    """Returns the list path (``/wday/cxs/{tenant}/{site}/jobs``)."""
    root = f"/wday/cxs/{tenant}/{site}"
    ordered = list(posts)

    def page(body: bytes) -> Route:
        try:
            asked = json.loads(body or b"{}")
            offset, limit = int(asked.get("offset", 0)), int(asked.get("limit", WORKDAY_PAGE))
            chosen = list((asked.get("appliedFacets") or {}).get("locations") or [])
        except (ValueError, TypeError, AttributeError):
            return Route(400, b'{"errorCode":"HTTP_400","message":"bad request"}')
        if offset >= WORKDAY_RESULT_CAP:
            return Route(400, b'{"errorCode":"HTTP_400","message":"offset past the result cap"}')
        found = [p for p in ordered if not chosen or workday_location_id(p.location) in chosen]
        return Route(200, workday_page(found, offset, limit))

    server.set_post_route(f"{root}/jobs", page)
    for p in ordered:
        server.set_route(f"{root}{workday_external_path(p)}", Route(200, workday_detail(base, site, p)))
    return f"{root}/jobs"


_COUNTRY_CODES = {"Germany": "de", "UK": "gb", "NY": "us", "Canada": "ca", "Europe": ""}


# -- SmartRecruiters -------------------------------------------------------------------------------
def smartrecruiters_summary(company: str, p: SamplePosting) -> dict[str, object]:
    city, country = _city_country(p.location)
    return {
        "id": p.native_id,
        "name": p.title,
        "uuid": f"0000-{p.native_id}",
        "refNumber": f"REF{p.native_id[-4:]}",
        "company": {"identifier": company, "name": p.employer},
        "releasedDate": "2026-02-18T09:00:00.000Z",
        "location": {
            "city": city,
            "country": _COUNTRY_CODES.get(country, ""),
            "remote": "Remote" in p.location,
            "fullLocation": p.location,
        },
        "industry": {"id": "computer_software", "label": "Computer Software"},
        "department": {"id": "1", "label": p.department},
        "function": {"id": "engineering", "label": "Engineering"},
        "typeOfEmployment": {"label": "Full-time"},
        "experienceLevel": {"id": "mid_senior_level", "label": "Mid-Senior Level"},
        "customField": [],
        "ref": f"https://api.smartrecruiters.com/v1/companies/{company}/postings/{p.native_id}",
        "language": {"code": "en", "label": "English"},
    }


def smartrecruiters_detail(base: str, company: str, p: SamplePosting) -> bytes:
    body = smartrecruiters_summary(company, p)
    first, _, rest = p.description.partition(". ")
    body["jobAd"] = {
        "sections": {
            "companyDescription": {"title": "Company Description", "text": _html(first)},
            "jobDescription": {"title": "Job Description", "text": _html(rest)},
            "qualifications": {"title": "Qualifications", "text": ""},
            "additionalInformation": {"title": "Additional Information", "text": ""},
        }
    }
    slug = p.slug
    body["postingUrl"] = f"{base}/sr/{company}/{p.native_id}-{slug}"
    body["applyUrl"] = f"{base}/sr/{company}/{p.native_id}-{slug}?oga=true"
    return json.dumps(body).encode()


def smartrecruiters_page(company: str, posts: Sequence[SamplePosting], offset: int, limit: int) -> bytes:
    chunk = posts[offset : offset + limit]
    return json.dumps(
        {
            "offset": offset,
            "limit": limit,
            "totalFound": len(posts),
            "content": [smartrecruiters_summary(company, p) for p in chunk],
        }
    ).encode()


def install_smartrecruiters(
    server: LocalHttpServer, base: str, company: str, posts: Sequence[SamplePosting]
) -> str:
    """Returns the list path; the whole board fits one page (the server ignores the query)."""
    root = f"/v1/companies/{company}/postings"
    server.set_route(root, Route(200, smartrecruiters_page(company, list(posts), 0, 100)))
    for p in posts:
        server.set_route(f"{root}/{p.native_id}", Route(200, smartrecruiters_detail(base, company, p)))
    return root


# -- Workable, Recruitee, Personio -----------------------------------------------------------------
def workable_account(base: str, account: str, posts: Sequence[SamplePosting]) -> bytes:
    jobs = []
    for p in posts:
        city, country = _city_country(p.location)
        jobs.append(
            {
                "title": p.title,
                "shortcode": p.native_id.upper(),
                "code": "",
                "employment_type": "Full-time",
                "telecommuting": "Remote" in p.location,
                "department": p.department,
                "url": f"{base}/j/{p.native_id.upper()}",
                "shortlink": f"{base}/j/{p.native_id.upper()}",
                "application_url": f"{base}/j/{p.native_id.upper()}/apply",
                "published_on": "2026-02-18",
                "created_at": "2026-02-18",
                "country": country,
                "city": city,
                "state": "",
                "education": "",
                "experience": "Mid-Senior level",
                "function": "Engineering",
                "industry": "Computer Software",
                "locations": [
                    {"country": country, "countryCode": "", "city": city, "region": "", "hidden": False}
                ],
                "description": _html(p.description),
            }
        )
    return json.dumps(
        {"name": posts[0].employer if posts else account, "description": "", "jobs": jobs}
    ).encode()


def recruitee_offers(base: str, posts: Sequence[SamplePosting]) -> bytes:
    offers = []
    for n, p in enumerate(posts):
        city, country = _city_country(p.location)
        first, _, rest = p.description.partition(". We look for")
        offers.append(
            {
                "id": 900_000 + n,
                "guid": f"guid-{p.native_id}",
                "slug": p.slug,
                "title": p.title,
                "description": _html(first),
                "requirements": _html("We look for" + rest) if rest else "",
                "location": p.location,
                "city": city,
                "country": country,
                "remote": "Remote" in p.location,
                "status": "published",
                "careers_url": f"{base}/o/{p.slug}",
                "careers_apply_url": f"{base}/o/{p.slug}/c/new",
                "company_name": p.employer,
                "department": p.department,
                "published_at": "2026-02-18 09:00:00 UTC",
                "employment_type_code": "fulltime",
            }
        )
    return json.dumps({"offers": offers}).encode()


def personio_feed(posts: Sequence[SamplePosting]) -> bytes:
    rows = []
    for n, p in enumerate(posts):
        first, _, rest = p.description.partition(". ")
        rows.append(
            "<position>"
            f"<id>{700_000 + n}</id><subcompany>{html.escape(p.employer)}</subcompany>"
            f"<office>{html.escape(p.location)}</office><department>{html.escape(p.department)}</department>"
            f"<recruitingCategory>Engineering</recruitingCategory><name>{html.escape(p.title)}</name>"
            "<jobDescriptions>"
            f"<jobDescription><name>About us</name><value><![CDATA[{_html(first)}]]></value></jobDescription>"
            f"<jobDescription><name>Your role</name><value><![CDATA[{_html(rest)}]]></value></jobDescription>"
            "</jobDescriptions>"
            "<employmentType>permanent</employmentType><seniority>experienced</seniority>"
            "<schedule>full-time</schedule><yearsOfExperience>3-5</yearsOfExperience>"
            "<occupation>software_development</occupation><createdAt>2026-02-18T09:00:00+00:00</createdAt>"
            "</position>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<workzag-jobs>' + "".join(rows) + "</workzag-jobs>"
    ).encode()
