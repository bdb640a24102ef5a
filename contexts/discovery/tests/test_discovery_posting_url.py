"""Which family a pasted posting URL belongs to, and which posting it names (ADR 0220)."""

from __future__ import annotations

import pytest

from jobctrl.discovery.domain.posting_url import UnsupportedPostingUrl, locate_posting


@pytest.mark.parametrize(
    ("url", "family", "source_id", "key"),
    [
        ("https://boards.greenhouse.io/acme/jobs/4012345", "greenhouse", "greenhouse-acme", "4012345"),
        ("https://job-boards.greenhouse.io/acme/jobs/4012345?gh_src=x", "greenhouse", "greenhouse-acme",
         "4012345"),
        ("https://jobs.lever.co/initech/6f1c-77aa", "lever", "lever-initech", "6f1c-77aa"),
        ("https://jobs.ashbyhq.com/hooli/0b1e-22", "ashby", "ashby-hooli", "0b1e-22"),
        ("https://jobs.smartrecruiters.com/Acme/7440001-senior-engineer", "smartrecruiters",
         "smartrecruiters-Acme", "7440001-senior-engineer"),
        ("https://apply.workable.com/acme/j/AB12CD/", "workable", "workable-acme", "AB12CD"),
        ("https://acme.recruitee.com/o/staff-engineer", "recruitee", "recruitee-acme", "staff-engineer"),
        ("https://acme.jobs.personio.de/job/700001", "personio", "personio-acme", "700001"),
        ("https://acme.wd5.myworkdayjobs.com/en-US/External/job/Berlin/Engineer_R1", "workday",
         "workday-acme-External", "Engineer_R1"),
        ("https://careers.example.org/jobs/42", "smartextract", "smart-careers.example.org-jobs-42", "42"),
    ],
)  # fmt: skip
def test_each_family_recognises_its_own_posting_urls(url: str, family: str, source_id: str, key: str) -> None:
    located = locate_posting(url)
    assert (located.family, located.spec.source_id, located.key) == (family, source_id, key)


def test_workday_posting_path_is_below_the_site() -> None:
    located = locate_posting(
        "https://acme.wd5.myworkdayjobs.com/External/job/Berlin/Engineer_R1", api_base="http://127.0.0.1:9"
    )
    assert located.path == "/job/Berlin/Engineer_R1"
    assert located.spec.base_url == "http://127.0.0.1:9"


def test_a_posting_is_named_by_its_id_its_leading_id_or_its_url_tail() -> None:
    sr = locate_posting("https://jobs.smartrecruiters.com/Acme/7440001-senior-engineer")
    assert sr.names(native_id="7440001", posting_url="https://x.example/other")
    assert not sr.names(native_id="744000", posting_url="https://x.example/other")
    rc = locate_posting("https://acme.recruitee.com/o/staff-engineer")
    assert rc.names(native_id="900001", posting_url="http://127.0.0.1:5/o/staff-engineer")
    assert not rc.names(native_id="900001", posting_url="http://127.0.0.1:5/o/staff-engineer-2")


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/jobs/1",
        "javascript:alert(1)",
        "https://user:pw@example.org/jobs/1",
        "https://boards.greenhouse.io/acme",
        "https://acme.wd5.myworkdayjobs.com/External",
        "https://acme.wd5.myworkdayjobs.com/External/job/../../admin",
        "https://acme.recruitee.com/",
        "https://example.org/" + "x" * 2100,
    ],
)
def test_urls_that_name_no_importable_posting_are_refused(url: str) -> None:
    with pytest.raises(UnsupportedPostingUrl):
        locate_posting(url)
