"""Steps for features/api/api_front_door.feature (shared steps in conftest.py)."""

from __future__ import annotations

import pytest
from pytest_bdd import parsers, scenarios, then, when

from jobctrl.orchestration.adapters.settings_store import SettingsStore

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("api/api_front_door.feature")


@when(parsers.parse('a request for host "{host}" reads the profile'))
def foreign_host(world: World, host: str) -> None:
    world.call("GET", "/v1/profile", headers={"Host": host})


@when("a page posts plain text to start a Discover run")
def plain_text_post(world: World) -> None:
    world.call("POST", "/v1/discovery/runs", content=b"{}", headers={"Content-Type": "text/plain"})


@when(parsers.parse('a page on "{origin}" saves the settings'))
def cross_origin(world: World, origin: str) -> None:
    world.call("PATCH", "/v1/settings", json={"autoApply": True}, headers={"Origin": origin})


@when(parsers.parse("the operator saves a profile of {size:d} MiB"))
def big_profile(world: World, size: int) -> None:
    world.call("PATCH", "/v1/profile", json={"summary": "x" * (size * 1024 * 1024)})


@when("the operator saves a profile whose summary holds a lone surrogate")
def surrogate(world: World) -> None:
    world.call(
        "PATCH",
        "/v1/profile",
        content=b'{"summary": "\\ud800"}',
        headers={"Content-Type": "application/json"},
    )


@when(parsers.parse('the operator sets autoApply to the text "{value}"'))
def coerced(world: World, value: str) -> None:
    world.call("PATCH", "/v1/settings", json={"autoApply": value})


@then(parsers.parse('the error names "{field}"'))
def names_field(world: World, field: str) -> None:
    assert field in world.response.json()["error"]["message"]


@then("auto-apply is still off")
def still_off(world: World) -> None:
    assert SettingsStore(world.db).load().auto_apply is False
