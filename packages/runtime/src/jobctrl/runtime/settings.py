"""Runtime settings the worker needs (a port: the orchestration settings aggregate replaces the
environment-backed default at integration)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from jobctrl.kernel.store import Database
from jobctrl.orchestration import SettingsStore, create_orchestration_tables
from jobctrl.runtime.config import JobctrlConfig, load_config


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


def seed_of(settings: RuntimeSettings) -> dict[str, Any]:
    """The settings document's keys a ``RuntimeSettings`` seeds."""
    return {
        "worker_activity_slots": settings.worker_activity_slots,
        "auto_apply": settings.auto_apply,
        "daily_budget_usd": settings.daily_budget_usd,
        "discovery_schedule_enabled": settings.scheduling_enabled,
        "discovery_schedule_cron": settings.schedule_cron,
    }


def config_seed(config: JobctrlConfig | None = None) -> dict[str, Any]:
    """What the configuration (``config.toml`` and the environment) seeds, per settings key: every
    reader of the settings document fills the keys never saved from here (ADR 0192)."""
    config = config or load_config()
    return {
        **seed_of(EnvSettings.from_config(config)),
        "apply_approval_required": config.apply.approval_required,
        "min_fit_score": config.apply.min_fit_score,
        "browser_submit_allowlist": list(config.apply.browser_submit_allowlist),
    }


class SavedSettings:
    """What the running worker obeys: the saved settings document (``jobctrl_settings``, the one
    ``PATCH /v1/settings`` writes), re-read on every ``load`` -- the worker loads on start-up and on
    every heartbeat.  A key never saved comes from ``seed`` (the configuration), per key: saving one
    setting leaves the others seeded (ADRs 0135, 0192)."""

    def __init__(self, db: Database, seed: SettingsSource) -> None:
        create_orchestration_tables(db)  # migrate-before-use: a fresh home has saved nothing yet
        self.source = seed
        self.store = SettingsStore(db, seed=lambda: seed_of(self.source.load()))

    def load(self) -> RuntimeSettings:
        if self.store.saved_document() is None:
            return self.source.load()
        saved = self.store.load()
        return RuntimeSettings(
            worker_activity_slots=saved.worker_activity_slots,
            auto_apply=saved.auto_apply,
            daily_budget_usd=saved.daily_budget_usd,
            scheduling_enabled=saved.discovery_schedule_enabled,
            schedule_cron=saved.discovery_schedule_cron,
        )


class EnvSettings:
    """The seeds from the configuration (``[worker]``/``[apply]`` of ``config.toml``, overridden by
    ``JOBCTRL_WORKER_ACTIVITY_SLOTS``, ``JOBCTRL_AUTO_APPLY``, ``JOBCTRL_DAILY_BUDGET_USD``,
    ``JOBCTRL_SCHEDULING_ENABLED``, ``JOBCTRL_SCHEDULE_CRON``), read on every ``load``."""

    def load(self) -> RuntimeSettings:
        return self.from_config(load_config())

    @staticmethod
    def from_config(config: JobctrlConfig) -> RuntimeSettings:
        return RuntimeSettings(
            worker_activity_slots=config.worker.activity_slots,
            auto_apply=config.apply.auto_apply,
            daily_budget_usd=config.worker.daily_budget_usd,
            scheduling_enabled=config.worker.scheduling_enabled,
            schedule_cron=config.worker.schedule_cron,
        )


def pdf_render_lanes() -> int:
    """``[worker] pdf_renderers`` / ``JOBCTRL_PDF_RENDERERS``: Chromium renderers a worker runs side by
    side (default: 2, or 1 on a one-core machine).  Each is a browser of its own (about 150 MB)."""
    return load_config().worker.render_lanes


@dataclass(frozen=True)
class TemporalTarget:
    address: str | None
    namespace: str
    task_queue: str

    @classmethod
    def from_env(cls) -> TemporalTarget:
        """``[temporal]`` of the configuration (``TEMPORAL_ADDRESS``, ``TEMPORAL_NAMESPACE``,
        ``JOBCTRL_TASK_QUEUE`` override it)."""
        temporal = load_config().temporal
        return cls(address=temporal.address, namespace=temporal.namespace, task_queue=temporal.task_queue)
