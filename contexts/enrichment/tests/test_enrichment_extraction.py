"""The extraction cascade on hand-written pages."""

from __future__ import annotations

import json

import pytest

from jobctrl.enrichment.domain.extraction import (
    Confidence,
    ExtractionTier,
    NoPostingContentError,
    extract_posting,
    from_source_payload,
)

LONG = " ".join(f"Responsibility number {i} covers a distinct part of the platform work." for i in range(12))


def _page(json_ld: object | str, body: str = "") -> str:
    block = json_ld if isinstance(json_ld, str) else json.dumps(json_ld)
    return f'<html><head><script type="application/ld+json">{block}</script></head><body>{body}</body></html>'


def test_json_ld_inside_a_graph_is_found_and_html_becomes_text() -> None:
    page = _page(
        {"@graph": [{"@type": "Organization"}, {"@type": "JobPosting", "description": f"<p>{LONG}</p>"}]}
    )
    extraction = extract_posting(page, "https://acme.example/jobs/1")
    assert extraction.tier is ExtractionTier.JSON_LD and extraction.confidence is Confidence.HIGH
    assert extraction.description == LONG


def test_broken_json_ld_is_skipped_and_the_cascade_carries_on() -> None:
    article = "".join(f"<p>Paragraph {i}: {LONG[i * 30 : i * 30 + 120]}</p>" for i in range(8))
    page = _page("{not json", f"<article><h1>Engineer</h1>{article}</article>")
    extraction = extract_posting(page, "https://acme.example/jobs/1")
    assert extraction.tier in (ExtractionTier.READABLE_TEXT, ExtractionTier.READABLE_TEXT_SPARSE)
    assert "Paragraph 3" in extraction.description


def test_a_thin_json_ld_description_is_not_trusted() -> None:
    page = _page({"@type": "JobPosting", "description": "Great job."})
    extraction = extract_posting(page, "https://acme.example/jobs/1")
    assert extraction.tier is ExtractionTier.READABLE_TEXT_SPARSE and extraction.confidence is Confidence.LOW


def test_apply_links_are_found_by_text_or_marker_and_made_absolute() -> None:
    posting = {"@type": "JobPosting", "description": LONG}
    by_text = extract_posting(
        _page(posting, '<a href="/apply?id=1">Apply for this job</a>'), "https://a.example/j/1"
    )
    by_class = extract_posting(
        _page(posting, '<a class="apply-button" href="https://ats.example/x">Go</a>'), "https://a.example/"
    )
    unsafe = extract_posting(_page(posting, '<a href="javascript:apply()">Apply</a>'), "https://a.example/")
    assert by_text.application_url == "https://a.example/apply?id=1"
    assert by_class.application_url == "https://ats.example/x"
    assert unsafe.application_url is None


def test_direct_apply_makes_the_posting_its_own_target() -> None:
    page = _page({"@type": "JobPosting", "description": LONG, "directApply": True})
    assert extract_posting(page, "https://a.example/j/9").application_url == "https://a.example/j/9"


def test_valid_through_is_read() -> None:
    page = _page({"@type": "JobPosting", "description": LONG, "validThrough": "2025-01-31T00:00:00Z"})
    valid = extract_posting(page, "https://a.example/").valid_through
    assert valid is not None and valid.year == 2025


def test_an_empty_page_has_no_content() -> None:
    with pytest.raises(NoPostingContentError) as info:
        extract_posting("<html><body></body></html>", "https://a.example/")
    assert info.value.code == "no_posting_content" and not info.value.retryable


def test_source_payloads_are_trusted_only_when_substantial() -> None:
    assert from_source_payload("Short.") is None
    payload = from_source_payload(f"<div>{LONG}</div>")
    assert (
        payload is not None
        and payload.tier is ExtractionTier.SOURCE_PAYLOAD
        and "<div>" not in payload.description
    )
