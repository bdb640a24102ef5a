"""The artifact store: files under one root, written atomically, verified by sha256 on every read.

Layout: ``<root>/<artifact_id>.<ext>`` holds the bytes and ``<root>/<artifact_id>.json`` the manifest
(id, kind, media type, size, sha256).  The manifest is written last, so a crash leaves either nothing
or bytes without a manifest (treated as absent and overwritten); a manifest is the commit mark.

* Atomic and ordered: bytes and manifest go to temp files in the same folder and are fsynced; the
  bytes are renamed in and the folder fsynced; only then is the manifest renamed in and the folder
  fsynced again.  ``put_all`` stores several artifacts (one job's PDFs) through the same three steps
  at once: the temp files' fsyncs run together and each folder fsync serves every artifact (ADR 0386).
* Deterministic ids: callers derive ids from what the artifact *is* (``artifact_id_for``), so a retry
  addresses the same file and ``put`` returns the stored artifact instead of writing a second one.
* A stored artifact whose bytes no longer hash to its manifest digest is refused
  (``ArtifactDigestMismatchError``) — on ``get`` and on the reuse path of ``put``; it is never served.
* Ids are checked (``checked_id``) before they become file names, and the path must stay under root.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from enum import StrEnum
from pathlib import Path

import msgspec

from jobctrl.kernel.ids import InvalidIdError, checked_id, deterministic_id
from jobctrl.materials.domain.errors import (
    ArtifactDigestMismatchError,
    ArtifactNotFoundError,
    InvalidArtifactIdError,
)


class ArtifactKind(StrEnum):
    RESUME_JSON = "resume_json"
    COVER_LETTER_JSON = "cover_letter_json"
    RESUME_PDF = "resume_pdf"
    COVER_LETTER_PDF = "cover_letter_pdf"


_EXTENSIONS = {
    ArtifactKind.RESUME_JSON: ("json", "application/json"),
    ArtifactKind.COVER_LETTER_JSON: ("json", "application/json"),
    ArtifactKind.RESUME_PDF: ("pdf", "application/pdf"),
    ArtifactKind.COVER_LETTER_PDF: ("pdf", "application/pdf"),
}


class StoredArtifact(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    artifact_id: str
    kind: ArtifactKind
    media_type: str
    size: int
    sha256: str


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def artifact_id_for(kind: ArtifactKind, job_id: str, *identity: str) -> str:
    """A stable id naming what the artifact is (kind, job, and its identifying inputs or digest)."""
    return f"{kind.value}-{deterministic_id('artifact', kind.value, job_id, *identity)}"


def default_root() -> Path:
    """``$JOBCTRL_HOME/artifacts`` (``~/.jobctrl/artifacts`` when JOBCTRL_HOME is unset)."""
    home = os.environ.get("JOBCTRL_HOME") or str(Path.home() / ".jobctrl")
    return Path(home) / "artifacts"


class ArtifactStore:
    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or default_root()).resolve()

    # -- paths -----------------------------------------------------------------------------------
    def _paths(self, artifact_id: str, kind: ArtifactKind) -> tuple[Path, Path]:
        try:
            checked_id(artifact_id)
        except InvalidIdError:
            raise InvalidArtifactIdError(
                f"artifact id {artifact_id[:60]!r} is not a safe file name"
            ) from None
        ext, _ = _EXTENSIONS[kind]
        data, manifest = self.root / f"{artifact_id}.{ext}", self.root / f"{artifact_id}.manifest.json"
        for path in (data, manifest):
            if path.resolve().parent != self.root:
                raise InvalidArtifactIdError(f"artifact id {artifact_id[:60]!r} escapes the store")
        return data, manifest

    # -- operations ------------------------------------------------------------------------------
    def put(self, artifact_id: str, kind: ArtifactKind, data: bytes) -> tuple[StoredArtifact, bool]:
        """Store ``data`` under ``artifact_id`` once.  Returns ``(artifact, created)``.

        When the id is already stored (a retry), the stored artifact is verified and returned and
        ``data`` is not written: the first committed bytes win.
        """
        return self.put_all([(artifact_id, kind, data)])[0]

    def put_all(self, items: Sequence[tuple[str, ArtifactKind, bytes]]) -> list[tuple[StoredArtifact, bool]]:
        """``put`` of each item, durably, with the fsyncs shared (ADR 0386).  Returns, in order,
        ``(artifact, created)`` for each.

        Every new item's bytes and manifest are written to temp files and fsynced together; then
        every item's bytes are renamed in and the folder is fsynced once; only then are the
        manifests (the commit marks) renamed in and the folder fsynced again.  No manifest is ever
        in the folder before its bytes are durable under their name, and every artifact returned is
        durable: a crash at any point leaves each item absent or bytes without a manifest.
        """
        results: list[tuple[StoredArtifact, bool]] = []
        new: list[tuple[Path, bytes, Path, bytes]] = []
        first: dict[str, StoredArtifact] = {}  # an id given twice: the first bytes win, as in put
        for artifact_id, kind, data in items:
            data_path, manifest_path = self._paths(artifact_id, kind)
            if artifact_id in first:
                results.append((first[artifact_id], False))
                continue
            existing = self._manifest(manifest_path)
            if existing is not None:
                self._verified(existing, data_path)
                results.append((existing, False))
                continue
            _, media_type = _EXTENSIONS[kind]
            artifact = StoredArtifact(
                artifact_id=artifact_id,
                kind=kind,
                media_type=media_type,
                size=len(data),
                sha256=sha256_hex(data),
            )
            new.append((data_path, data, manifest_path, msgspec.json.encode(artifact)))
            results.append((artifact, True))
            first[artifact_id] = artifact
        if new:
            self.root.mkdir(parents=True, exist_ok=True)
            _durable_writes(self.root, new)
        return results

    def get(self, artifact_id: str, kind: ArtifactKind) -> tuple[StoredArtifact, bytes]:
        data_path, manifest_path = self._paths(artifact_id, kind)
        artifact = self._manifest(manifest_path)
        if artifact is None:
            raise ArtifactNotFoundError(f"no artifact {artifact_id!r}")
        return artifact, self._verified(artifact, data_path)

    def find(self, artifact_id: str, kind: ArtifactKind) -> StoredArtifact | None:
        """The verified artifact if stored, else None (a digest mismatch still raises)."""
        data_path, manifest_path = self._paths(artifact_id, kind)
        artifact = self._manifest(manifest_path)
        if artifact is not None:
            self._verified(artifact, data_path)
        return artifact

    def path_of(self, artifact_id: str, kind: ArtifactKind) -> Path:
        return self._paths(artifact_id, kind)[0]

    # -- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _manifest(path: Path) -> StoredArtifact | None:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            return msgspec.json.decode(raw, type=StoredArtifact)
        except msgspec.DecodeError:
            raise ArtifactDigestMismatchError(f"manifest {path.name!r} is unreadable") from None

    @staticmethod
    def _verified(artifact: StoredArtifact, data_path: Path) -> bytes:
        try:
            data = data_path.read_bytes()
        except FileNotFoundError:
            raise ArtifactDigestMismatchError(
                f"artifact {artifact.artifact_id!r} has a manifest but no bytes"
            ) from None
        if sha256_hex(data) != artifact.sha256 or len(data) != artifact.size:
            raise ArtifactDigestMismatchError(f"artifact {artifact.artifact_id!r} does not match its sha256")
        return data


_FSYNCS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="jobctrl-fsync")


def _fsync_all(fds: Sequence[int]) -> None:
    """fsync every file at once: the file system commits them together, not one commit each."""
    if len(fds) == 1:
        os.fsync(fds[0])
    else:
        list(_FSYNCS.map(os.fsync, fds))


def _fsync_dir(root: Path) -> None:
    dir_fd = os.open(root, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _temp_file(path: Path, data: bytes, temps: list[str], fds: list[int]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    temps.append(tmp)
    fds.append(fd)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _durable_writes(root: Path, items: Sequence[tuple[Path, bytes, Path, bytes]]) -> None:
    """Write each ``(data_path, data, manifest_path, manifest)`` so that every data file is durable
    under its name before any manifest is renamed in, and every manifest is durable on return."""
    temps: list[str] = []  # data temp, manifest temp, per item; a name is dropped once renamed
    fds: list[int] = []
    try:
        try:
            for data_path, data, manifest_path, manifest in items:
                _temp_file(data_path, data, temps, fds)
                _temp_file(manifest_path, manifest, temps, fds)
            _fsync_all(fds)  # 1. every byte of every temp file is durable
        finally:
            for fd in fds:
                os.close(fd)
        for (data_path, _, _, _), tmp in zip(items, temps[0::2], strict=True):
            os.replace(tmp, data_path)
        _fsync_dir(root)  # 2. every data file is durable under its name
        for (_, _, manifest_path, _), tmp in zip(items, temps[1::2], strict=True):
            os.replace(tmp, manifest_path)
        _fsync_dir(root)  # 3. every manifest (commit mark) is durable
    except BaseException:
        for tmp in temps:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise
