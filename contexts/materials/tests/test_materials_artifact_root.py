"""Where artifacts live by default, and that ids are checked before touching the disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, artifact_id_for, default_root
from jobctrl.materials.domain.errors import InvalidArtifactIdError


def test_the_default_root_is_under_jobctrl_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path / "home"))
    assert default_root() == tmp_path / "home" / "artifacts"
    assert ArtifactStore().root == (tmp_path / "home" / "artifacts").resolve()


def test_ids_are_deterministic_and_distinct_per_input() -> None:
    one = artifact_id_for(ArtifactKind.RESUME_PDF, "job-1", "resume_json-x", "classic")
    assert one == artifact_id_for(ArtifactKind.RESUME_PDF, "job-1", "resume_json-x", "classic")
    assert one != artifact_id_for(ArtifactKind.RESUME_PDF, "job-1", "resume_json-x", "classic", "a4")
    assert one.startswith("resume_pdf-")


@pytest.mark.parametrize("bad", ["", "a" * 300, "x/../../y", "name with space", "ü-id"])
def test_unsafe_ids_touch_nothing(tmp_path: Path, bad: str) -> None:
    store = ArtifactStore(tmp_path / "artifacts")
    with pytest.raises(InvalidArtifactIdError):
        store.put(bad, ArtifactKind.RESUME_JSON, b"{}")
    assert not (tmp_path / "artifacts").exists()
