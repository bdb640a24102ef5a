"""Error taxonomy, text bounding, ids and the clock."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import hypothesis
import pytest

from jobctrl.kernel import errors
from jobctrl.kernel.clock import FixedClock, isoformat, parse_instant
from jobctrl.kernel.ids import InvalidIdError, checked_id, deterministic_id
from jobctrl.kernel.text import bound_text, bounded_code


@pytest.mark.parametrize(
    ("cls", "code", "retryable"),
    [
        (errors.ConfigurationError, "configuration", False),
        (errors.AuthenticationError, "authentication", False),
        (errors.MissingInputError, "missing_input", False),
        (errors.BudgetExceededError, "budget_exceeded", False),
        (errors.AttemptBudgetExhaustedError, "attempt_budget_exhausted", False),
        (errors.TransientNetworkError, "transient_network", True),
        (errors.LlmTransientError, "llm_transient", True),
        (errors.SourceUnavailableError, "source_unavailable", True),
    ],
)
def test_error_codes_and_retryability(cls: type[errors.JobCtrlError], code: str, retryable: bool) -> None:
    assert errors.classify(cls("boom")) == (code, retryable)
    assert (code in errors.NON_RETRYABLE_CODES) is (not retryable)


def test_anything_unclassified_is_retryable() -> None:
    assert errors.classify(KeyError("x")) == ("unclassified", True)


def test_bound_text_strips_controls_and_cuts_with_a_marker() -> None:
    assert bound_text("a\x00b\x1b[31mc\u202e", 100) == "a b [31mc"
    cut = bound_text("x" * 50, 10)
    assert len(cut) == 10 and cut.endswith("…")
    assert bound_text("line1\nline2\x07", 100, keep_newlines=True) == "line1\nline2"


def test_bounded_code_refuses_free_text() -> None:
    assert bounded_code("source_unavailable") == "source_unavailable"
    assert bounded_code("Traceback (most recent call last)") == "unclassified"


def test_checked_id_refuses_path_like_ids() -> None:
    assert checked_id("prep-preparation:abc") == "prep-preparation:abc"
    for bad in ("../etc/passwd", "a/b", "", "x" * 300, "a..b"):
        with pytest.raises(InvalidIdError):
            checked_id(bad)


def test_deterministic_ids_depend_only_on_their_parts() -> None:
    assert deterministic_id("n", "a", "b") == deterministic_id("n", "a", "b")
    assert deterministic_id("n", "a", "b") != deterministic_id("n", "ab")


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("n", "a", "b"), "fed4710e-6162-245f-608e-103c2cecf80d"),
        (("job", "https://boards.example/acme/1"), "29dfdb06-f723-2490-c250-af3ea3be72e3"),
        (
            ("contact-candidate", "task-1", "https://x.example/team", "ada lovelace"),
            "5c3ac91b-b2ad-ea73-fd51-a5d8f1a55d79",
        ),
    ],
)
def test_deterministic_ids_are_the_same_in_every_process_and_release(
    parts: tuple[str, ...], expected: str
) -> None:
    """Fixed values: ids name stored streams and events, so a salt (per process, per release) or a
    changed separator would fork every stream on the next restart."""
    assert deterministic_id(*parts) == expected


def test_fixed_clock_and_wire_format() -> None:
    clock = FixedClock(datetime(2026, 1, 2, 3, 4, 5, 678_000, tzinfo=UTC))
    clock.advance(timedelta(seconds=1))
    assert isoformat(clock.now()) == "2026-01-02T03:04:06.678Z"
    assert parse_instant("2026-01-02T03:04:06.678Z") == clock.now()
    with pytest.raises(ValueError, match="naive"):
        isoformat(datetime(2026, 1, 1))


def _bound_text_by_the_rules(value: str, limit: int, keep_newlines: bool) -> str:
    """``bound_text`` spelled out without its fast path for already clean text."""
    controls = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
    controls_and_newlines = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
    if keep_newlines:
        cleaned = re.sub(controls, "", value)
    else:
        cleaned = re.sub(r" {2,}", " ", re.sub(controls_and_newlines, " ", value)).strip()
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@hypothesis.given(
    value=hypothesis.strategies.text(
        alphabet=hypothesis.strategies.sampled_from("ab \t\n\r\x00\x1f\x7f\x85\xa0\u202a\u2066\u2028é…")
        | hypothesis.strategies.characters(),
        max_size=40,
    ),
    limit=hypothesis.strategies.integers(min_value=1, max_value=50),
    keep_newlines=hypothesis.strategies.booleans(),
)
def test_bound_text_fast_path_for_clean_text_changes_no_result(
    value: str, limit: int, keep_newlines: bool
) -> None:
    assert bound_text(value, limit, keep_newlines=keep_newlines) == _bound_text_by_the_rules(
        value, limit, keep_newlines
    )
