"""The orchestration settings and their ranges (reference ``config.json`` and ``discovery_settings``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from jobctrl.orchestration.domain.settings.cron import validate_cron

#: A host name (lower case, no scheme, port or path): the form of one browser-submit allowlist entry.
_LABEL = r"[a-z0-9]([a-z0-9\-]{0,61}[a-z0-9])?"
Host = Annotated[str, Field(min_length=1, max_length=253, pattern=rf"^{_LABEL}(\.{_LABEL})*$")]

DEFAULT_USER_AGENT = "JobCtrl/0.1 (+local job search; contact: owner of this install)"


class OrchestrationSettings(BaseModel):
    # Unknown keys are refused, not silently kept (a typo must not look saved).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    auto_apply: bool = False
    apply_approval_required: bool = True
    min_fit_score: Annotated[float, Field(ge=0, le=10)] = 7
    apply_concurrency: Annotated[int, Field(ge=1, le=16)] = 1
    pipeline_internal_concurrency: Annotated[int, Field(ge=1, le=16)] = 1
    worker_activity_slots: Annotated[int, Field(ge=1, le=64)] = 4
    daily_budget_usd: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 25.0
    tailoring_judge_min_score: Annotated[float, Field(ge=0, le=1)] = 0.82
    apply_max_budget_usd: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 5.0
    apply_timeout_seconds: Annotated[int, Field(ge=60, le=3600)] = 900
    discovery_schedule_enabled: bool = False
    discovery_schedule_cron: str = "0 7 * * *"
    max_parallel_families: Annotated[int, Field(ge=1, le=16)] = 1
    crawl_user_agent: Annotated[str, Field(min_length=1, max_length=200)] = DEFAULT_USER_AGENT
    task_queue: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")] = "jobctrl-default"
    # The owned SMTP sender of email applications (ADR 0161).  No host: email applications are not
    # sent.  The password is never saved: it is read from the environment variable named here.
    smtp_host: Annotated[str, Field(max_length=253, pattern=r"^[A-Za-z0-9.\-:]*$")] = ""
    smtp_port: Annotated[int, Field(ge=1, le=65535)] = 587
    smtp_starttls: bool = True
    smtp_username: Annotated[str, Field(max_length=320)] = ""
    smtp_from: Annotated[str, Field(max_length=320)] = ""
    smtp_password_env: Annotated[str, Field(pattern=r"^[A-Z_][A-Z0-9_]{0,99}$")] = "JOBCTRL_SMTP_PASSWORD"
    # The sites whose application forms an approved live run submits itself, after dry-run evidence
    # (ADR 0280).  Empty (the default): every browser application stops for the person's own submit.
    browser_submit_allowlist: Annotated[tuple[Host, ...], Field(max_length=100)] = ()
    # Days after an application without an outcome before its follow-up is due (ADR 0163).
    follow_up_days: Annotated[int, Field(ge=1, le=90)] = 7

    @field_validator("discovery_schedule_cron")
    @classmethod
    def _cron(cls, value: str) -> str:
        return validate_cron(value)

    @field_validator("crawl_user_agent")
    @classmethod
    def _printable(cls, value: str) -> str:
        if not value.isprintable():
            raise ValueError("the user agent must be printable text")
        return value
