"""Where a Workday posting is applied for: Workday's application flow lives at the posting URL +
``/apply`` when the detail says ``canApply``; a posting that takes no applications keeps its own URL."""

from __future__ import annotations

from typing import Any

import pytest

from jobctrl.discovery import SourceConfig
from jobctrl.discovery.adapters.workday import parse_detail

SITE = "https://acme.wd5.myworkdayjobs.com/External"
PATH = "/job/Berlin/Engineer_R1"


def _detail(can_apply: Any) -> dict[str, Any]:
    info: dict[str, Any] = {"title": "Engineer", "jobReqId": "R1", "externalUrl": SITE + PATH}
    if can_apply is not None:
        info["canApply"] = can_apply
    return {"jobPostingInfo": info, "hiringOrganization": {"name": "Acme"}}


@pytest.mark.parametrize(
    ("can_apply", "expected"),
    [(True, SITE + PATH + "/apply"), (False, SITE + PATH), (None, SITE + PATH), ("yes", SITE + PATH)],
)
def test_the_apply_url_is_workdays_apply_page_only_when_the_posting_takes_applications(
    can_apply: Any, expected: str
) -> None:
    config = SourceConfig("workday-acme-External", "workday", "acme/External", "Acme", "http://127.0.0.1")
    posting = parse_detail(_detail(can_apply), {"externalPath": PATH}, config, SITE)
    assert posting.apply_url == expected
    assert posting.posting_url == SITE + PATH
