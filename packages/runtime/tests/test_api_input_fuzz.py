"""Hypothesis over the profile, settings and source (Discover) inputs, on SQLite and PostgreSQL
(issue #18, "Done when"): any JSON — text with NULs and lone surrogates, wrong types, deep nesting,
unknown keys — is answered below 500, and a refused request writes nothing (the log head, the saved
settings and the saved profile do not move)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from sqlalchemy import select

from jobctrl.kernel.store import Database
from jobctrl.orchestration.adapters.tables import jobctrl_settings
from jobctrl.runtime.api.models import SettingsPatch
from jobctrl.testing.figures import Figures
from jobctrl.testing.runtime.api_seed import beat

from .api_world import NOW, ApiWorld, api_world

pytestmark = pytest.mark.both_databases
FUZZ = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))

text = st.text(alphabet=st.characters(codec=None), max_size=30) | st.sampled_from(
    ["\x00", "\ud800", "a\udfffb", "\U0001f680", "", " ", "yes", "true", "1e309", "-0"]
)
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | text
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
PROFILE_KEYS = ["contact", "summary", "experience", "education", "skills", "projects", "certifications",
                "languages", "preferences", "targets", "style", "template", "hobbies"]  # fmt: skip
SETTINGS_KEYS = [f.alias or name for name, f in SettingsPatch.model_fields.items()] + ["unknownSetting"]


@pytest.fixture
def world(db_url: str, database: Database, temporal_address: str) -> Iterator[ApiWorld]:
    for world in api_world(db_url, database, temporal=temporal_address):  # Discover starts for real
        beat(database, NOW - timedelta(seconds=5))  # a live worker: Discover can be started
        yield world


def _state(world: ApiWorld) -> tuple[int, list[str], Any]:
    with world.db.read() as conn:
        saved = [str(r) for r in conn.execute(select(jobctrl_settings))]
    return world.head(), saved, world.client.get("/v1/profile").json()


class Tally:
    """What a fuzzed route answered: calls, refusals (typed 4xx), and the failures the row counts --
    a 5xx or an untyped error (a crash), or a refusal that wrote."""

    def __init__(self) -> None:
        self.calls = self.refused = self.crashes = self.wrote = 0

    def record(self, figures: Figures, route: str, db_kind: str) -> None:
        where = f"{self.calls} fuzzed {route} ({db_kind}; {self.refused} refused)"
        figures.record(f"crashes over {where}", self.crashes, goal="0", met=self.crashes == 0)
        figures.record(f"refusals that wrote, over {where}", self.wrote, goal="0", met=self.wrote == 0)


def _send(world: ApiWorld, tally: Tally, method: str, path: str, body: Any) -> None:
    tally.calls += 1
    before = _state(world)
    raw = json.dumps(
        body, ensure_ascii=True
    )  # lone surrogates travel as \ud800 escapes, as a client sends them
    response = world.client.request(method, path, content=raw, headers={"Content-Type": "application/json"})
    typed = response.status_code < 400 or _is_typed_error(response)
    tally.crashes += response.status_code >= 500 or not typed
    assert response.status_code < 500, f"{method} {path} {raw[:200]}: {response.status_code} {response.text}"
    if response.status_code >= 400:
        tally.refused += 1
        assert typed, response.text
        wrote = _state(world) != before
        tally.wrote += wrote
        assert not wrote, f"{method} {path} {raw[:200]} wrote on a {response.status_code}"


def _is_typed_error(response: Any) -> bool:
    try:
        return set(response.json()) == {"error"}
    except ValueError:
        return False


def _fuzz(world: ApiWorld, db_kind: str, figures: Figures, route: str, bodies: SearchStrategy[Any]) -> None:
    """Send ``bodies`` to ``route`` ("METHOD /path"); the row counts crashes and refusals that wrote,
    and the fuzz must have reached the refusals, not only good inputs."""
    method, path = route.split(" ", 1)
    tally = Tally()

    @FUZZ
    @given(body=bodies)
    def check(body: Any) -> None:
        _send(world, tally, method, path, body)

    try:
        check()
    finally:
        tally.record(figures, route, db_kind)
    assert tally.refused > 0


def test_profile_patches(world: ApiWorld, db_kind: str, figures: Figures) -> None:
    bodies = st.dictionaries(st.sampled_from(PROFILE_KEYS), json_values, max_size=4) | json_values
    _fuzz(world, db_kind, figures, "PATCH /v1/profile", bodies)


def test_settings_patches(world: ApiWorld, db_kind: str, figures: Figures) -> None:
    bodies = st.dictionaries(st.sampled_from(SETTINGS_KEYS), json_values, max_size=3) | json_values
    _fuzz(world, db_kind, figures, "PATCH /v1/settings", bodies)
    assert world.client.get("/v1/settings").json()["autoApply"] is False  # never switched by coercion


def test_discovery_source_inputs(world: ApiWorld, db_kind: str, figures: Figures) -> None:
    keys = st.sampled_from(["sourceIds", "limit", "minScore", "other"])
    source_ids = st.lists(text | st.from_regex(r"\A[a-z]{1,8}:[a-z0-9\-]{1,12}\Z"), max_size=5)
    _fuzz(
        world,
        db_kind,
        figures,
        "POST /v1/discovery/runs",
        st.dictionaries(keys, json_values | source_ids, max_size=3),
    )
