"""Step definitions for features/materials/artifacts.feature."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore

scenarios("materials/artifacts.feature")
KIND = ArtifactKind.RESUME_JSON


@pytest.fixture
def shelf(tmp_path: Path) -> dict[str, Any]:
    return {"store": ArtifactStore(tmp_path / "artifacts"), "root": tmp_path / "artifacts"}


def _attempt(shelf: dict[str, Any], action: Any) -> None:
    try:
        shelf["result"] = action()
    except JobCtrlError as exc:
        shelf["error"] = exc


@given(parsers.parse('the artifact "{artifact_id}" was stored with "{text}"'))
def stored(shelf: dict[str, Any], artifact_id: str, text: str) -> None:
    assert shelf["store"].put(artifact_id, KIND, text.encode())[1] is True


@given(parsers.parse('the bytes of "{artifact_id}" were written but not its manifest'))
def bytes_only(shelf: dict[str, Any], artifact_id: str) -> None:
    shelf["root"].mkdir(parents=True)
    (shelf["root"] / f"{artifact_id}.json").write_bytes(b"half-writ")


@given("its bytes were changed on disk")
def changed(shelf: dict[str, Any]) -> None:
    [data] = [p for p in shelf["root"].glob("*.json") if not p.name.endswith(".manifest.json")]
    data.write_bytes(b"forged")


@when(parsers.parse('the artifact "{artifact_id}" is stored with "{text}"'))
def store(shelf: dict[str, Any], artifact_id: str, text: str) -> None:
    _attempt(shelf, lambda: shelf["store"].put(artifact_id, KIND, text.encode()))


@when(parsers.parse('"{artifact_id}" is read'))
def read(shelf: dict[str, Any], artifact_id: str) -> None:
    _attempt(shelf, lambda: shelf["store"].get(artifact_id, KIND))


@then("the store reports it already existed")
def existed(shelf: dict[str, Any]) -> None:
    assert shelf["result"][1] is False


@then("the store reports it was created")
def created(shelf: dict[str, Any]) -> None:
    assert shelf["result"][1] is True


@then(parsers.parse('reading "{artifact_id}" returns "{text}"'))
def reads(shelf: dict[str, Any], artifact_id: str, text: str) -> None:
    stored_artifact, data = shelf["store"].get(artifact_id, KIND)
    assert data == text.encode() and stored_artifact.size == len(data)


@then(parsers.parse("the store holds {count:d} artifact"))
@then(parsers.parse("the store holds {count:d} artifacts"))
def holds(shelf: dict[str, Any], count: int) -> None:
    root: Path = shelf["root"]
    files = sorted(p.name for p in root.rglob("*")) if root.exists() else []
    assert len([f for f in files if f.endswith(".manifest.json")]) == count
    assert not [f for f in files if f.endswith(".tmp")]  # atomic writes leave no temp files
    assert not list(root.parent.parent.glob("etc/passwd*"))


@then(parsers.parse('the store refuses it as "{code}"'))
def refuses(shelf: dict[str, Any], code: str) -> None:
    assert "error" in shelf and shelf["error"].code == code
