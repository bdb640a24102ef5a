"""Ports the apply use cases drive: a browser that fills forms, an email sender, an artifact reader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from jobctrl.apply.domain.facts import ApplicantProfile, ApplicationMaterials

ChallengeWidget = Literal["hcaptcha", "recaptcha", "turnstile"]


@dataclass(frozen=True)
class BrowserApplyRequest:
    url: str
    profile: ApplicantProfile
    materials: ApplicationMaterials
    dry_run: bool


@dataclass(frozen=True)
class FormFilled:
    """The form was filled and left unsubmitted.  ``reported_submitted`` is what the driver claimed."""

    filled: tuple[str, ...]
    missing: tuple[str, ...]
    blocked_attempts: int
    reported_submitted: bool = False


@dataclass(frozen=True)
class ChallengeDetected:
    widget: ChallengeWidget


@dataclass(frozen=True)
class FormNotFound:
    pass


@dataclass(frozen=True)
class PageUnavailable:
    status: int | None


BrowserOutcome = FormFilled | ChallengeDetected | FormNotFound | PageUnavailable


class BrowserApplyPort(Protocol):
    def fill_application(self, request: BrowserApplyRequest) -> BrowserOutcome: ...


@dataclass(frozen=True)
class OutgoingEmail:
    recipient: str
    subject: str
    body: str
    attachment_name: str
    attachment: bytes


class EmailSenderPort(Protocol):
    def send(self, message: OutgoingEmail) -> None:
        """Send once.  Any exception means the outcome is unknown (the mail may have left)."""


class ArtifactReader(Protocol):
    def read(self, artifact_id: str) -> bytes: ...
