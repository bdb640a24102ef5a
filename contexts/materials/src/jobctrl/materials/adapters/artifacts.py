"""The artifact store: files under one root, written atomically, verified by sha256 on every read.

Layout: ``<root>/<artifact_id>.<ext>`` holds the bytes and ``<root>/<artifact_id>.json`` the manifest
(id, kind, media type, size, sha256).  The manifest is written last, so a crash leaves either nothing
or bytes without a manifest (treated as absent and overwritten); a manifest is the commit mark.

* Atomic: temp file in the same folder, write, flush, fsync, ``os.replace``, fsync the folder.
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
        data_path, manifest_path = self._paths(artifact_id, kind)
        existing = self._manifest(manifest_path)
        if existing is not None:
            self._verified(existing, data_path)
            return existing, False
        _, media_type = _EXTENSIONS[kind]
        artifact = StoredArtifact(
            artifact_id=artifact_id, kind=kind, media_type=media_type, size=len(data), sha256=sha256_hex(data)
        )
        self.root.mkdir(parents=True, exist_ok=True)
        _atomic_write(data_path, data)
        _atomic_write(manifest_path, msgspec.json.encode(artifact))
        return artifact, True

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


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
