"""Ports the apply use cases drive: a browser that fills forms, an email sender, an artifact reader."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from jobctrl.apply.domain.facts import ApplicantProfile, ApplicationMaterials

ChallengeWidget = Literal["hcaptcha", "recaptcha", "turnstile"]


@dataclass(frozen=True)
class FormFilled:
    """The form was filled and left unsubmitted.  ``reported_submitted`` is what the driver claimed."""

    filled: tuple[str, ...]
    missing: tuple[str, ...]
    blocked_attempts: int
    reported_submitted: bool = False


#: Called by the driver at most once, with the filled form, just before it would click submit.  It
#: records (and commits) the submit intent and returns True to go on; False leaves the form unsent.
BeforeSubmit = Callable[[FormFilled], bool]


@dataclass(frozen=True)
class BrowserApplyRequest:
    url: str
    profile: ApplicantProfile
    materials: ApplicationMaterials
    dry_run: bool
    #: None (every dry run, and every live run on a site off the allowlist): never submit.
    before_submit: BeforeSubmit | None = None


@dataclass(frozen=True)
class FormSubmitted:
    """The driver clicked submit once (after ``before_submit`` said yes) and the site answered."""

    filled: tuple[str, ...]
    status: int


@dataclass(frozen=True)
class SubmitOutcomeUnknown:
    """The driver clicked submit but heard no answer: the application may or may not have gone."""

    detail: str


@dataclass(frozen=True)
class ChallengeDetected:
    widget: ChallengeWidget


@dataclass(frozen=True)
class FormNotFound:
    pass


@dataclass(frozen=True)
class PageUnavailable:
    status: int | None


BrowserOutcome = (
    FormFilled | FormSubmitted | SubmitOutcomeUnknown | ChallengeDetected | FormNotFound | PageUnavailable
)


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
