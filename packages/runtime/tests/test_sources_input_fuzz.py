"""Reliability: the sources inputs under fuzzed input (hypothesis).  ``jobctrl sources add`` (the real
CLI, in process) and ``POST /v1/sources`` / ``DELETE /v1/sources/{id}`` (the real app) get arbitrary
kinds, tokens, URLs, names, API bases and JSON bodies.  Goal: 0 crashes — every input is either
accepted (exit 0, 200/201) or refused with a typed error (exit 2 with a code; a 4xx with an error
code), and a refusal writes nothing (the log head does not move)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from jobctrl.discovery.domain.source_spec import FAMILIES
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.cli import app
from jobctrl.testing.figures import Figures

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]
EXAMPLES = 60

kinds = st.sampled_from([*FAMILIES, "GreenHouse", "", " ", "greenhouse\x00", "x" * 300]) | st.text(
    max_size=30
)
urls = st.sampled_from(
    [
        "https://boards.greenhouse.io/acme",
        "https://jobs.lever.co/acme",
        "https://acme.wd5.myworkdayjobs.com/en-US/External",
        "http://127.0.0.1:9/board",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "https://",
        "https://exa mple.com/x",
        "https://example.com/" + "a" * 3000,
        "ftp://example.com/x",
    ]
)
texts = st.text(max_size=60) | st.text(alphabet="abc-_.:/%?#@ 0123456789", max_size=300)
tokens = urls | texts
names = st.none() | texts | st.just("n" * 250)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.fixture
def env(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JOBCTRL_HOME", str(home))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    return home


@pytest.fixture
def api(db_url: str, store: EventStore) -> Iterator[TestClient]:
    with TestClient(create_app(ApiConfig(database_url=db_url)), raise_server_exceptions=False) as client:
        yield client


def _no_crashes(
    figures: Figures, what: str, db_kind: str, counts: dict[str, int], crashes: list[str]
) -> None:
    """The row (crashes over every call), no crash, and the fuzz reached the refusals."""
    total = sum(counts.values()) + len(crashes)
    figures.record(
        f"crashes over {total} fuzzed {what} ({db_kind}; {counts['refused']} refused)",
        len(crashes), goal="0", met=not crashes,
    )  # fmt: skip
    assert not crashes, crashes[:3]
    assert counts["refused"] > 0


def test_fuzzed_sources_add_arguments_never_crash_and_a_refusal_writes_nothing(
    env: Path, store: EventStore, db_kind: str, figures: Figures
) -> None:
    crashes: list[str] = []
    counts = {"added": 0, "refused": 0}
    runner = CliRunner()

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(kinds, tokens, names, st.none() | urls | texts)
    def one(kind: str, token: str, name: str | None, api_base: str | None) -> None:
        args = ["sources", "add", "--", kind, token]
        if name is not None:
            args[2:2] = ["--name", name]
        if api_base is not None:
            args[2:2] = ["--api-base", api_base]
        before = store.head_position()
        result = runner.invoke(app, args)
        moved = store.head_position() != before
        said = f"{args!r}: exit {result.exit_code}, {result.output[-300:]!r}, {result.exception!r}"
        if result.exit_code == 0:
            counts["added"] += 1
        elif result.exit_code == 2 and not moved and (": " in result.output or "Usage" in result.output):
            counts["refused"] += 1
        else:
            crashes.append(said)

    one()
    _no_crashes(figures, "`sources add` calls", db_kind, counts, crashes)


def test_fuzzed_sources_api_bodies_never_crash_and_a_refusal_writes_nothing(
    api: TestClient, store: EventStore, db_kind: str, figures: Figures
) -> None:
    crashes: list[str] = []
    counts = {"accepted": 0, "refused": 0}
    fields = st.fixed_dictionaries(
        {},
        optional={
            "kind": kinds | json_values,
            "tokenOrUrl": tokens | json_values,
            "name": names | json_values,
            "apiBase": st.none() | urls | texts | json_values,
            "extra": json_values,
        },
    )
    good = st.fixed_dictionaries(
        {
            "kind": st.sampled_from(FAMILIES),
            "tokenOrUrl": st.text(alphabet="abcxyz0123456789-", min_size=1, max_size=40),
        },
        optional={"name": names, "apiBase": st.none() | urls},
    )
    bodies = (good | fields).map(json.dumps) | json_values.map(json.dumps) | st.binary(max_size=40)
    targets = st.just(("POST", "/v1/sources")) | st.builds(
        lambda sid: ("DELETE", f"/v1/sources/{sid}"), st.text(alphabet="abcdef0123456789-:.%", max_size=80)
    )

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(targets, bodies)
    def one(target: tuple[str, str], body: Any) -> None:
        method, url = target
        before = store.head_position()
        content = body if isinstance(body, bytes) else body.encode()
        response = api.request(method, url, content=content, headers={"content-type": "application/json"})
        moved = store.head_position() != before
        said = f"{method} {url} {content[:200]!r}: {response.status_code} {response.text[:300]}"
        if response.status_code in (200, 201):
            counts["accepted"] += 1
        elif 400 <= response.status_code < 500 and not moved and response.json().get("error", {}).get("code"):
            counts["refused"] += 1
        else:
            crashes.append(said)

    one()
    _no_crashes(figures, "sources API calls", db_kind, counts, crashes)
