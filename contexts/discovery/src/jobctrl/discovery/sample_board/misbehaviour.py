"""Bad answers a sample-board route can be switched to (tests and failure demos).

Each is a real HTTP answer: broken JSON, an empty body, the wrong shape, a body over the caps, a slow
answer, server and client errors.
"""

from __future__ import annotations

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.sample_board.server import LocalHttpServer, Route
from jobctrl.politeness import CrawlPolicy

BAD_ANSWERS: dict[str, Route] = {
    "malformed": Route(200, b'{"jobs": [{"id": 1, "title": "Eng'),
    "empty": Route(200, b""),
    "wrong shape": Route(200, b'{"jobs": {"id": 1}}'),
    "huge": Route(200, b'{"jobs": [' + b'{"id": 1},' * 300_000 + b"{}]}"),
    # Far longer than any request budget, so the timeout is certain (``stop()`` ends the wait).
    "slowly": Route(200, b'{"jobs": []}', delay_s=60.0),
    "500": Route(500, b"oops"),
    "503": Route(503, b"unavailable"),
    "404": Route(404, b'{"error": "board not found"}'),
}

LISTING_PATHS: dict[str, str] = {
    "greenhouse": "/v1/boards/{}/jobs",
    "lever": "/v0/postings/{}",
    "ashby": "/posting-api/job-board/{}",
    "other": "/careers/{}",
    "careers": "/careers/{}",
    "smartrecruiters": "/v1/companies/{}/postings",
    "workday": "/wday/cxs/{}/jobs",  # board "tenant/site"; a POST search API
}


def break_listing(server: LocalHttpServer, source: SourceConfig, answer: Route) -> None:
    """Switch the source's listing to ``answer`` (a POST search API answers it to every search)."""
    path = LISTING_PATHS[source.family_name].format(source.board)
    if source.family_name == "workday":
        server.set_post_route(path, lambda _body: answer)
    else:
        server.set_route(path, answer)


def quick_local_policy(policy: CrawlPolicy) -> CrawlPolicy:
    """A policy for crawling the local board in tests: loopback allowed, no pacing, a 2 MB body cap (so
    "huge" trips it) and a 3 s request budget: some 30 times a loaded machine's slowest healthy local
    answer (0.004 to 0.09 s), and 1/20 of the "slowly" answer's delay, so neither side is a race."""
    return policy.for_local_servers().replace(
        min_interval_s=0.0, request_timeout_s=3.0, max_body_bytes=2_000_000
    )
