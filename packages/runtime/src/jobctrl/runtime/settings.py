"""Runtime settings the worker needs (a port: the orchestration settings aggregate replaces the
environment-backed default at integration)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration.workflows.ids import TASK_QUEUE


@dataclass(frozen=True)
class RuntimeSettings:
    worker_activity_slots: int = 4
    auto_apply: bool = False
    daily_budget_usd: float = 25.0
    scheduling_enabled: bool = False
    schedule_cron: str = "0 7 * * *"

    @property
    def slots(self) -> int:
        return min(64, max(1, self.worker_activity_slots))  # clamped 1-64 as in the reference


class SettingsSource(Protocol):
    def load(self) -> RuntimeSettings: ...


@dataclass(frozen=True)
class FixedSettings:
    value: RuntimeSettings

    def load(self) -> RuntimeSettings:
        return self.value


class MutableSettings:
    """Settings that a test (or the API) can change while the worker runs."""

    def __init__(self, value: RuntimeSettings | None = None) -> None:
        self.value = value or RuntimeSettings()

    def load(self) -> RuntimeSettings:
        return self.value


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ConfigurationError(f"{name} must be a boolean, got {raw!r}")


class EnvSettings:
    """``JOBCTRL_WORKER_ACTIVITY_SLOTS``, ``JOBCTRL_AUTO_APPLY``, ``JOBCTRL_DAILY_BUDGET_USD``,
    ``JOBCTRL_SCHEDULING_ENABLED``, ``JOBCTRL_SCHEDULE_CRON``."""

    def load(self) -> RuntimeSettings:
        try:
            return RuntimeSettings(
                worker_activity_slots=int(os.environ.get("JOBCTRL_WORKER_ACTIVITY_SLOTS", "4")),
                auto_apply=_env_bool("JOBCTRL_AUTO_APPLY", False),
                daily_budget_usd=float(os.environ.get("JOBCTRL_DAILY_BUDGET_USD", "25")),
                scheduling_enabled=_env_bool("JOBCTRL_SCHEDULING_ENABLED", False),
                schedule_cron=os.environ.get("JOBCTRL_SCHEDULE_CRON", "0 7 * * *"),
            )
        except ValueError as exc:
            raise ConfigurationError(f"bad runtime setting: {exc}") from exc


def pdf_render_lanes() -> int:
    """``JOBCTRL_PDF_RENDERERS``: Chromium renderers a worker runs side by side (default: 2, or 1 on
    a one-core machine).  Each is a browser of its own (about 150 MB)."""
    raw = os.environ.get("JOBCTRL_PDF_RENDERERS")
    if raw is None:
        return min(2, os.cpu_count() or 1)
    try:
        lanes = int(raw)
    except ValueError:
        lanes = 0
    if not 1 <= lanes <= 16:
        raise ConfigurationError(f"JOBCTRL_PDF_RENDERERS must be a whole number from 1 to 16, got {raw!r}")
    return lanes


@dataclass(frozen=True)
class TemporalTarget:
    address: str | None
    namespace: str
    task_queue: str

    @classmethod
    def from_env(cls) -> TemporalTarget:
        return cls(
            address=os.environ.get("TEMPORAL_ADDRESS") or None,
            namespace=os.environ.get("TEMPORAL_NAMESPACE", "default"),
            task_queue=os.environ.get("JOBCTRL_TASK_QUEUE", TASK_QUEUE),
        )
