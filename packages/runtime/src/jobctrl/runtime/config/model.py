"""The one configuration a user brings: ``$JOBCTRL_HOME/config.toml`` plus environment overrides.

Typed and validated by pydantic-settings: the file is read by its ``TomlConfigSettingsSource``, the
environment by ``EnvOverrides`` (an explicit table of variable names, so the long-standing names
``TEMPORAL_ADDRESS``, ``JOBCTRL_DATABASE_URL``, ``JOBCTRL_PDF_RENDERERS``… keep working beside the new
``JOBCTRL_LLM_*`` ones), and defaults are the model's.  Precedence: environment, then file, then
default.  Every section forbids unknown keys, so a typo is an error naming its key path, never a
silently ignored line.

The runtime toggles of the saved settings document (``jobctrl_settings``: auto-apply, schedule, the
minimum fit score, apply concurrency, the daily budget) stay owned by orchestration's ``SettingsStore``
and are changed live through ``PATCH /v1/settings``; ``[apply]`` and ``[worker]`` here only seed what a
fresh install starts with.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from jobctrl.discovery import InvalidSearchFilters, SearchFilters
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.llm import LlmSettings
from jobctrl.llm.pricing import ModelPrice

CONFIG_FILE = "config.toml"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
OFFLINE_MODEL = "local-offline"
# The model name sent to an OpenAI-compatible server when none is configured: llama.cpp and most
# single-model local servers ignore it; it carries "local", so it is priced at zero.
DEFAULT_ENDPOINT_MODEL = "local-model"
KEYLESS_PLACEHOLDER = "no-key"  # the OpenAI client needs some key; keyless local servers ignore it

Term = Annotated[str, Field(min_length=1, max_length=80)]


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LlmConfig(Section):
    provider: Literal["offline", "openai-compatible"] = "offline"
    base_url: str | None = None
    model: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    # The key itself never goes in the file: the file names the variable holding it.
    api_key_env: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")] = "OPENAI_API_KEY"
    api_key: SecretStr | None = None  # only from JOBCTRL_LLM_API_KEY
    mode: Literal["tools", "json"] = "tools"
    timeout_seconds: Annotated[float, Field(gt=0, le=900)] = 60.0
    max_retries: Annotated[int, Field(ge=0, le=3)] = 0
    prices: dict[Annotated[str, Field(min_length=1, max_length=200)], ModelPrice] = {}

    @field_validator("base_url")
    @classmethod
    def _http(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http(s) URL such as http://127.0.0.1:11434/v1")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _endpoint_needs_url(self) -> LlmConfig:
        if self.provider == "openai-compatible" and self.base_url is None:
            raise ValueError(
                "provider 'openai-compatible' needs base_url (llm.base_url or JOBCTRL_LLM_BASE_URL)"
            )
        return self

    @property
    def effective_model(self) -> str:
        if self.model:
            return self.model
        return OFFLINE_MODEL if self.provider == "offline" else DEFAULT_ENDPOINT_MODEL

    @property
    def local_endpoint(self) -> bool:
        return self.base_url is not None and urlsplit(self.base_url).hostname in LOOPBACK

    def resolved_api_key(self, environ: Mapping[str, str] | None = None) -> str:
        env = os.environ if environ is None else environ
        if self.api_key is not None and self.api_key.get_secret_value():
            return self.api_key.get_secret_value()
        return env.get(self.api_key_env) or KEYLESS_PLACEHOLDER

    def settings(self, environ: Mapping[str, str] | None = None) -> LlmSettings:
        """The provider settings ``jobctrl.llm.build_provider`` takes."""
        if self.provider == "offline":
            return LlmSettings(provider="offline", model=self.effective_model, prices=self.prices)
        return LlmSettings(
            provider="openai_compatible",
            model=self.effective_model,
            base_url=self.base_url,
            api_key=SecretStr(self.resolved_api_key(environ)),
            mode=self.mode,
            timeout_seconds=self.timeout_seconds,
            max_retries=self.max_retries,
            prices=self.prices,
            free_when_unpriced=self.local_endpoint,
        )


class SearchConfig(Section):
    keywords: list[Term] = Field(default_factory=list, max_length=50)
    locations: list[Term] = Field(default_factory=list, max_length=50)
    remote: Literal["any", "only", "exclude"] = "any"
    seniority: list[Term] = Field(default_factory=list, max_length=50)
    exclusions: list[Term] = Field(default_factory=list, max_length=50)

    def filters(self) -> SearchFilters:
        try:
            return SearchFilters(
                keywords=tuple(self.keywords),
                locations=tuple(self.locations),
                remote=self.remote,
                seniority=tuple(self.seniority),
                exclusions=tuple(self.exclusions),
            )
        except InvalidSearchFilters as exc:  # the field constraints above make this unreachable
            raise ValueError(str(exc)) from exc


class DiscoveryConfig(Section):
    #: Broad boards through JobSpy (the ``jobspy`` family, ADR 0285): off by default, so nothing
    #: scrapes Indeed, LinkedIn & co. unless the user turns it on; the demo never does.
    broad_boards: bool = False


class MaterialsConfig(Section):
    paper_size: Literal["letter", "a4"] = "letter"
    template: Literal["classic"] = "classic"


class ApplyConfig(Section):
    """Seeds of the saved settings document (a fresh install starts with these)."""

    auto_apply: bool = False
    approval_required: bool = True
    min_fit_score: Annotated[float, Field(ge=0, le=10)] = 7
    # Hosts whose forms an approved live run submits itself (ADR 0280); any other site hands off.
    browser_submit_allowlist: list[Annotated[str, Field(min_length=1, max_length=253)]] = Field(
        default_factory=list, max_length=100
    )


class WorkerConfig(Section):
    activity_slots: Annotated[int, Field(ge=1, le=64)] = 4
    pdf_renderers: Annotated[int, Field(ge=1, le=16)] | None = None  # default: 2, or 1 on one core
    daily_budget_usd: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 25.0
    scheduling_enabled: bool = False
    schedule_cron: Annotated[str, Field(min_length=9, max_length=100)] = "0 7 * * *"

    @property
    def render_lanes(self) -> int:
        return self.pdf_renderers if self.pdf_renderers is not None else min(2, os.cpu_count() or 1)


class StorageConfig(Section):
    database_url: str | None = None  # default: SQLite at $JOBCTRL_HOME/jobctrl.db


class TemporalConfig(Section):
    address: str | None = None  # unset: the embedded dev server
    namespace: Annotated[str, Field(min_length=1, max_length=200)] = "default"
    task_queue: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")] = "jobctrl-default"


# Environment variable -> key path.  The JOBCTRL_LLM_* names are new; the others predate the file.
ENV_KEYS: dict[str, tuple[str, str]] = {
    "JOBCTRL_LLM_PROVIDER": ("llm", "provider"),
    "JOBCTRL_LLM_BASE_URL": ("llm", "base_url"),
    "JOBCTRL_LLM_MODEL": ("llm", "model"),
    "JOBCTRL_LLM_API_KEY": ("llm", "api_key"),
    "JOBCTRL_LLM_MODE": ("llm", "mode"),
    "JOBCTRL_LLM_TIMEOUT_SECONDS": ("llm", "timeout_seconds"),
    "JOBCTRL_BROAD_BOARDS": ("discovery", "broad_boards"),
    "JOBCTRL_PAPER_SIZE": ("materials", "paper_size"),
    "JOBCTRL_AUTO_APPLY": ("apply", "auto_apply"),
    "JOBCTRL_WORKER_ACTIVITY_SLOTS": ("worker", "activity_slots"),
    "JOBCTRL_PDF_RENDERERS": ("worker", "pdf_renderers"),
    "JOBCTRL_DAILY_BUDGET_USD": ("worker", "daily_budget_usd"),
    "JOBCTRL_SCHEDULING_ENABLED": ("worker", "scheduling_enabled"),
    "JOBCTRL_SCHEDULE_CRON": ("worker", "schedule_cron"),
    "JOBCTRL_DATABASE_URL": ("storage", "database_url"),
    "TEMPORAL_ADDRESS": ("temporal", "address"),
    "TEMPORAL_NAMESPACE": ("temporal", "namespace"),
    "JOBCTRL_TASK_QUEUE": ("temporal", "task_queue"),
}


class EnvOverrides(PydanticBaseSettingsSource):
    """The environment, through the explicit ``ENV_KEYS`` table (an empty variable counts as unset)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str] | None = None) -> None:
        super().__init__(settings_cls)
        self.environ = os.environ if environ is None else environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ builds the nested mapping directly

    def __call__(self) -> dict[str, Any]:
        values: dict[str, dict[str, Any]] = {}
        for name, (section, key) in ENV_KEYS.items():
            raw = self.environ.get(name)
            if raw:
                values.setdefault(section, {})[key] = raw
        return values


def config_path() -> Path:
    return jobctrl_home() / CONFIG_FILE


class JobctrlConfig(BaseSettings):
    model_config = SettingsConfigDict(extra="forbid", frozen=True, toml_file=None)

    llm: LlmConfig = LlmConfig()
    search: SearchConfig = SearchConfig()
    discovery: DiscoveryConfig = DiscoveryConfig()
    materials: MaterialsConfig = MaterialsConfig()
    apply: ApplyConfig = ApplyConfig()
    worker: WorkerConfig = WorkerConfig()
    storage: StorageConfig = StorageConfig()
    temporal: TemporalConfig = TemporalConfig()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # init (tests, explicit values) > environment > $JOBCTRL_HOME/config.toml > defaults.
        return (
            init_settings,
            EnvOverrides(settings_cls),
            TomlConfigSettingsSource(settings_cls, toml_file=config_path()),
        )
