"""The source families' stand-in content: postings of their own per test (no two are the same job by
content) and the bad answers a vendor's listing can be switched to."""

from __future__ import annotations

import random

from jobctrl.discovery.sample_board.misbehaviour import BAD_ANSWERS
from jobctrl.discovery.sample_board.postings import ROLES, SamplePosting, describe
from jobctrl.discovery.sample_board.server import Route

CITIES = ("Berlin, Germany", "London, UK", "New York, NY", "Remote - Europe", "Toronto, Canada")

_WORDS = (
    "ledger", "harbour", "compiler", "orchard", "telemetry", "glacier", "invoice", "lantern", "quorum",
    "meadow", "payload", "saffron", "turbine", "vector", "willow", "zenith", "beacon", "cascade",
    "dynamo", "ember", "fathom", "gazette", "hollow", "iris", "juniper", "kelvin", "lattice", "mosaic",
)  # fmt: skip


def project(seq: int) -> str:
    """A paragraph of its own per posting, so no two test postings are the same job by content."""
    rng = random.Random(seq)
    return "This role's project: " + " ".join(rng.choice(_WORDS) for _ in range(120)) + "."


def postings_of(family: str, employer: str, count: int) -> list[SamplePosting]:
    board = employer.split(maxsplit=1)[0].lower()
    out = []
    for i in range(count):
        role = ROLES[i % len(ROLES)]
        location = CITIES[i % len(CITIES)]
        seq = 5000 + i
        native = {"workday": f"R{seq:06d}", "smartrecruiters": str(744_000_100_000 + i)}.get(
            family, f"{board}{seq}"
        )
        slug = f"{role.title.lower().replace(' ', '-')}-{seq}"
        out.append(
            SamplePosting(
                family,
                board,
                employer,
                native,
                slug,
                f"{role.title} {i + 1}",
                location,
                role.department,
                describe(employer, "builds things people rely on", role, location, seq) + " " + project(seq),
            )
        )
    return out


def bad_answers(family: str) -> dict[str, Route]:
    wrong = {
        "workday": b'{"total": 3, "jobPostings": {"title": "Engineer"}}',
        "smartrecruiters": b'{"offset": 0, "totalFound": 1, "content": {"id": "1"}}',
        "workable": b'{"name": "Acme", "jobs": {"shortcode": "X"}}',
        "recruitee": b'{"offers": {"id": 1}}',
        "personio": b"<positions><position><id>1</id></position></positions>",
    }[family]
    bad_item = {
        "workday": b'{"total": 1, "jobPostings": [{"title": "Engineer", "externalPath": "../../admin"}]}',
        "smartrecruiters": b'{"offset": 0, "totalFound": 1, "content": [{"name": "Engineer"}]}',
        "workable": b'{"name": "Acme", "jobs": [{"title": "Engineer", "url": "https://x.example/j/1"}]}',
        "recruitee": b'{"offers": [{"id": 1, "title": "Engineer"}]}',
        "personio": b"<workzag-jobs><position><id>../1</id><name>Engineer</name></position></workzag-jobs>",
    }[family]
    xml = "application/xml" if family == "personio" else "application/json"
    return {
        "malformed": Route(
            200,
            b'{"jobs": [{"id": 1, "title": "Eng' if family != "personio" else b"<workzag-jobs><position>",
            xml,
        ),
        "an empty body": Route(200, b"", xml),
        "the wrong shape": Route(200, wrong, xml),
        "a malformed item": Route(200, bad_item, xml),
        "429": Route(429, b'{"message": "rate limit exceeded"}', headers=(("Retry-After", "30"),)),
        "503": Route(503, b"unavailable"),
        "500": Route(500, b"oops"),
        "slowly": BAD_ANSWERS["slowly"],  # longer than the test policy's request timeout
        "a huge body": Route(200, b'{"jobs": [' + b'{"id": 1},' * 250_000 + b"{}]}", xml),
        "404": Route(404, b'{"message": "company not found"}'),
        "an entity bomb": Route(
            200,
            b'<?xml version="1.0"?><!DOCTYPE z [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            b"<workzag-jobs><position><id>1</id><name>&b;</name></position></workzag-jobs>",
            xml,
        ),
    }
