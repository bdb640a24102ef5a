"""The artifact store's durable order (ADR 0386): every data file is durable under its name before any
manifest (the commit mark) is renamed in, and every manifest is durable before ``put_all`` returns,
with the fsyncs of one job's PDFs shared.  Real files; the stdlib's ``os.fsync`` / ``os.replace``
are observed (and, for the crash test, made to stop the write at each step in turn)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, sha256_hex

ITEMS = [
    ("resume_pdf-a1", ArtifactKind.RESUME_PDF, b"%PDF-1.4 resume " * 400),
    ("cover_letter_pdf-b2", ArtifactKind.COVER_LETTER_PDF, b"%PDF-1.4 cover " * 300),
]


class Crash(BaseException):
    """The process dying at this point (not an Exception, so nothing handles it as an error)."""


def _observed(monkeypatch: pytest.MonkeyPatch, crash_at: int | None = None) -> list[tuple[str, str, str]]:
    """Record every fsync (by path) and rename; raise ``Crash`` instead of the ``crash_at``-th."""
    steps: list[tuple[str, str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def step(kind: str, a: str, b: str, call: Callable[[], Any]) -> Any:
        if crash_at is not None and len(steps) == crash_at:
            raise Crash(kind)
        steps.append((kind, a, b))
        return call()

    def fsync(fd: int) -> None:
        step("fsync", os.readlink(f"/proc/self/fd/{fd}"), "", lambda: real_fsync(fd))

    def replace(src: Any, dst: Any) -> None:
        step("replace", os.fspath(src), os.fspath(dst), lambda: real_replace(src, dst))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return steps


def test_bytes_are_durable_under_their_names_before_any_manifest_is_renamed_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ArtifactStore(tmp_path)
    steps = _observed(monkeypatch)
    results = store.put_all(ITEMS)
    assert [created for _, created in results] == [True, True]
    root = str(tmp_path.resolve())
    fsynced = [a for kind, a, _ in steps if kind == "fsync"]
    renamed = {b: (i, a) for i, (kind, a, b) in enumerate(steps) if kind == "replace"}
    dir_syncs = [i for i, (kind, a, _) in enumerate(steps) if kind == "fsync" and a == root]
    data = [renamed[str(store.path_of(aid, kind))] for aid, kind, _ in ITEMS]
    manifests = [renamed[f"{root}/{aid}.manifest.json"] for aid, _, _ in ITEMS]
    # Each temp file's bytes were fsynced before it was renamed into place.
    for i, tmp in data + manifests:
        assert tmp in fsynced and fsynced.index(tmp) < i
    # A folder fsync lies between the last data rename and the first manifest rename, and another
    # after the last manifest rename: both PDFs share them (6 fsyncs, not 4 per artifact).
    last_data, first_manifest = max(i for i, _ in data), min(i for i, _ in manifests)
    assert any(last_data < d < first_manifest for d in dir_syncs)
    assert dir_syncs[-1] > max(i for i, _ in manifests)
    assert len(fsynced) == 6 and len(dir_syncs) == 2


def _crash_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    with monkeypatch.context() as m:
        steps = _observed(m)
        ArtifactStore(tmp_path / "count").put_all(ITEMS)
        return len(steps)


def _states(store: ArtifactStore) -> Iterator[tuple[str, bool]]:
    for aid, kind, data in ITEMS:
        found = store.find(aid, kind)  # a manifest without its bytes would raise here
        if found is not None:
            assert found.sha256 == sha256_hex(data) and store.path_of(aid, kind).read_bytes() == data
        yield aid, found is not None


def test_a_crash_at_any_step_leaves_each_artifact_absent_or_whole_and_a_retry_stores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    points = _crash_points(tmp_path, monkeypatch)
    assert points == 10  # 4 temp fsyncs, 2 data renames, folder fsync, 2 manifest renames, folder fsync
    for k in range(points):
        store = ArtifactStore(tmp_path / f"crash-{k}")
        with monkeypatch.context() as m:
            _observed(m, crash_at=k)
            with pytest.raises(Crash):
                store.put_all(ITEMS)
        present = dict(_states(store))  # every artifact is absent or verified whole, never half-made
        # No manifest is renamed in before the folder fsync that follows the data renames.
        assert any(present.values()) == (k >= 8)
        # Bytes without a manifest are absent to readers; the retry stores what is missing.
        assert [created for _, created in store.put_all(ITEMS)] == [not present[aid] for aid, _, _ in ITEMS]
        assert dict(_states(store)) == {aid: True for aid, _, _ in ITEMS}
        assert not [p for p in (tmp_path / f"crash-{k}").iterdir() if p.name.endswith(".tmp")]
        # And a put of what is stored reuses it.
        assert [created for _, created in store.put_all(ITEMS)] == [False, False]


def test_an_id_given_twice_in_one_call_is_stored_once_with_the_first_bytes(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    aid, kind, data = ITEMS[0]
    results = store.put_all([(aid, kind, data), (aid, kind, b"%PDF-1.4 other")])
    assert [created for _, created in results] == [True, False]
    assert results[1][0] == results[0][0] and store.path_of(aid, kind).read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{aid}.manifest.json", f"{aid}.pdf"]
