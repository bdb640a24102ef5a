"""The owned SMTP sender, built from the saved settings at each send (ADR 0161).

Host, port, STARTTLS, user and From come from the settings document; the password is read from the
environment variable the settings name (``smtp_password_env``, default ``JOBCTRL_SMTP_PASSWORD``), so
it is never written to the database or the log.  The TLS trust store is the system's (OpenSSL also
honours ``SSL_CERT_FILE``).  No host configured: email applications are refused before any claim.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from jobctrl.apply import SmtpEmailSender
from jobctrl.apply.ports import EmailSenderPort
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.materials import ArtifactKind, ArtifactStore
from jobctrl.orchestration import OrchestrationSettings


def smtp_sender_from(settings: Callable[[], OrchestrationSettings]) -> Callable[[], EmailSenderPort]:
    def build() -> EmailSenderPort:
        s = settings()
        if not s.smtp_host:
            raise ConfigurationError("no SMTP host is configured (settings: smtp_host)")
        if not s.smtp_from:
            raise ConfigurationError("no sender address is configured (settings: smtp_from)")
        password = os.environ.get(s.smtp_password_env) if s.smtp_username else None
        if s.smtp_username and not password:
            raise ConfigurationError(f"SMTP user set but {s.smtp_password_env} is not in the environment")
        return SmtpEmailSender(
            s.smtp_host, s.smtp_port, sender=s.smtp_from, starttls=s.smtp_starttls,
            username=s.smtp_username or None, password=password,
        )  # fmt: skip

    return build


class ResumePdfReader:
    """``ArtifactReader`` over the artifact store: an email application attaches the resume PDF."""

    def __init__(self, artifacts: ArtifactStore) -> None:
        self.artifacts = artifacts

    def read(self, artifact_id: str) -> bytes:
        _, data = self.artifacts.get(artifact_id, ArtifactKind.RESUME_PDF)
        return data
