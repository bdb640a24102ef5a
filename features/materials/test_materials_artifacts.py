"""Step definitions for features/materials/artifacts.feature."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, StoredArtifact

scenarios("materials/artifacts.feature")
KIND = ArtifactKind.RESUME_JSON


@dataclass
class Shelf:
    """The artifact store under test, its folder, and what the last When got back or raised."""

    root: Path
    store: ArtifactStore
    result: tuple[StoredArtifact, bool | bytes] | None = None
    error: JobCtrlError | None = None

    def created(self) -> bool | bytes:
        assert self.result is not None, self.error
        return self.result[1]


@pytest.fixture
def shelf(tmp_path: Path) -> Shelf:
    return Shelf(root=tmp_path / "artifacts", store=ArtifactStore(tmp_path / "artifacts"))


def _attempt(shelf: Shelf, action: Callable[[], tuple[StoredArtifact, bool | bytes]]) -> None:
    try:
        shelf.result = action()
    except JobCtrlError as exc:
        shelf.error = exc


@given(parsers.parse('the artifact "{artifact_id}" was stored with "{text}"'))
def stored(shelf: Shelf, artifact_id: str, text: str) -> None:
    assert shelf.store.put(artifact_id, KIND, text.encode())[1] is True


@given(parsers.parse('the bytes of "{artifact_id}" were written but not its manifest'))
def bytes_only(shelf: Shelf, artifact_id: str) -> None:
    shelf.root.mkdir(parents=True)
    (shelf.root / f"{artifact_id}.json").write_bytes(b"half-writ")


@given("its bytes were changed on disk")
def changed(shelf: Shelf) -> None:
    [data] = [p for p in shelf.root.glob("*.json") if not p.name.endswith(".manifest.json")]
    data.write_bytes(b"forged")


@when(parsers.parse('the artifact "{artifact_id}" is stored with "{text}"'))
def store(shelf: Shelf, artifact_id: str, text: str) -> None:
    _attempt(shelf, lambda: shelf.store.put(artifact_id, KIND, text.encode()))


@when(parsers.parse('"{artifact_id}" is read'))
def read(shelf: Shelf, artifact_id: str) -> None:
    _attempt(shelf, lambda: shelf.store.get(artifact_id, KIND))


@then("the store reports it already existed")
def existed(shelf: Shelf) -> None:
    assert shelf.created() is False


@then("the store reports it was created")
def created(shelf: Shelf) -> None:
    assert shelf.created() is True


@then(parsers.parse('reading "{artifact_id}" returns "{text}"'))
def reads(shelf: Shelf, artifact_id: str, text: str) -> None:
    stored_artifact, data = shelf.store.get(artifact_id, KIND)
    assert data == text.encode() and stored_artifact.size == len(data)


@then(parsers.parse("the store holds {count:d} artifact"))
@then(parsers.parse("the store holds {count:d} artifacts"))
def holds(shelf: Shelf, count: int) -> None:
    root = shelf.root
    files = sorted(p.name for p in root.rglob("*")) if root.exists() else []
    assert len([f for f in files if f.endswith(".manifest.json")]) == count
    assert not [f for f in files if f.endswith(".tmp")]  # atomic writes leave no temp files
    assert not list(root.parent.parent.glob("etc/passwd*"))


@then(parsers.parse('the store refuses it as "{code}"'))
def refuses(shelf: Shelf, code: str) -> None:
    assert shelf.error is not None and shelf.error.code == code
