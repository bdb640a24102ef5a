"""Input the stores cannot hold is a typed 422 naming the field, and writes nothing, on SQLite and
PostgreSQL (issue #18, rows 6 and 8): lone surrogates and NULs in bodies, NULs in query parameters
and paths, and settings whose types would have to be coerced."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobctrl.kernel.store import Database
from jobctrl.kernel.text import unstorable_text

from .api_world import ApiWorld, api_world

pytestmark = pytest.mark.both_databases


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[ApiWorld]:
    yield from api_world(db_url, database)


JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"summary": "\\ud800"}', "summary"),
        ('{"summary": "ok\\u0000"}', "summary"),
        ('{"contact": {"name": "A\\udfffB"}}', "contact"),
        ('{"experience": [{"title": "x"}, {"title": "\\ud83d"}]}', "experience"),
        ('{"skills": {"\\u0000": 1}}', "skills"),
    ],
)
def test_unstorable_profile_text_is_a_422_naming_the_field(world: ApiWorld, body: str, field: str) -> None:
    before = world.head()
    response = world.client.patch("/v1/profile", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and field in error["message"]
    assert world.head() == before
    assert world.client.get("/v1/profile").status_code == 200


def test_a_whole_surrogate_pair_is_fine(world: ApiWorld) -> None:
    body = '{"summary": [{"id": "sum-1", "text": "rocket \\ud83d\\ude80"}]}'
    response = world.client.patch("/v1/profile", content=body, headers=JSON)
    assert response.status_code == 200, response.text
    assert response.json()["content"]["summary"] == [{"id": "sum-1", "text": "rocket \U0001f680"}]


@pytest.mark.parametrize("param", ["q", "employer"])
def test_a_nul_in_a_search_parameter_is_a_422(world: ApiWorld, param: str) -> None:
    response = world.client.get(f"/v1/jobs?{param}=a%00b")
    assert response.status_code == 422, response.text
    assert response.json()["error"] == {
        "code": "invalid_request",
        "message": f"query.{param}: a NUL cannot be stored or searched for",
    }
    assert world.client.get(f"/v1/jobs?{param}=ab").status_code == 200


def test_a_nul_in_a_path_is_a_422(world: ApiWorld) -> None:
    response = world.client.get("/v1/jobs/j%001")
    assert response.status_code == 422 and response.json()["error"]["message"].startswith("path:")


@pytest.mark.parametrize(
    "change",
    [{"autoApply": "yes"}, {"autoApply": 1}, {"applyApprovalRequired": "false"}, {"workerActivitySlots": "5"},
     {"discoveryScheduleEnabled": "on"}, {"dailyBudgetUsd": "3"}],
)  # fmt: skip
def test_settings_are_strictly_typed(world: ApiWorld, change: dict[str, object]) -> None:
    before = world.client.get("/v1/settings").json()
    response = world.client.patch("/v1/settings", json=change)
    assert response.status_code == 422, response.text
    [field] = change
    assert (
        response.json()["error"]["code"] == "invalid_request" and field in response.json()["error"]["message"]
    )
    assert world.client.get("/v1/settings").json() == before
    assert before["autoApply"] is False


def test_strict_settings_still_take_real_values(world: ApiWorld) -> None:
    response = world.client.patch("/v1/settings", json={"dailyBudgetUsd": 3, "workerActivitySlots": 5})
    assert response.status_code == 200, response.text
    assert response.json()["dailyBudgetUsd"] == 3.0 and response.json()["workerActivitySlots"] == 5


def test_unstorable_text_names_the_inner_place() -> None:
    assert unstorable_text({"a": [{"b": "x"}, {"b": "\ud800"}]}) == "a[1].b"
    assert unstorable_text({"a": "ok", "b": ["fine", "\U0001f680"]}) is None
