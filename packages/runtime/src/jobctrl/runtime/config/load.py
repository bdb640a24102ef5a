"""Loading the configuration: one validated value, errors by key path, and where each value came from."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, SecretStr, ValidationError

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.runtime.config.model import ENV_KEYS, EnvOverrides, JobctrlConfig, config_path

Origin = Literal["env", "file", "default"]


@dataclass(frozen=True)
class Problem:
    path: str  # "llm.provider"
    reason: str
    where: str  # "config.toml", "JOBCTRL_LLM_PROVIDER", ...

    def render(self) -> str:
        return f"{self.path}: {self.reason} (from {self.where})"


class InvalidConfiguration(ConfigurationError):
    """The configuration does not validate; nothing was started."""

    code = "invalid_configuration"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("invalid configuration: " + "; ".join(p.render() for p in problems))


def _file_values(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidConfiguration([Problem("(file)", f"not valid TOML: {exc}", str(path))]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidConfiguration([Problem("(file)", f"unreadable: {exc}", str(path))]) from None


def _env_values(environ: Mapping[str, str]) -> dict[str, Any]:
    return EnvOverrides(JobctrlConfig, environ)()


def _env_name(path: str) -> str | None:
    section, _, key = path.partition(".")
    key = key.split(".")[0]
    return next((name for name, where in ENV_KEYS.items() if where == (section, key)), None)


def _has(values: Mapping[str, Any], path: tuple[str, ...]) -> bool:
    node: Any = values
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def load_config() -> JobctrlConfig:
    """The effective configuration (environment over ``$JOBCTRL_HOME/config.toml`` over defaults),
    or ``InvalidConfiguration`` listing every bad key path with the place its value came from."""
    file = Path(config_path())
    file_values = _file_values(file)  # a TOML syntax error is reported with its line, first
    try:
        return JobctrlConfig()
    except ValidationError as exc:
        env_values = _env_values(os.environ)
        problems = []
        for error in exc.errors():
            loc = tuple(str(p) for p in error["loc"])
            dotted = ".".join(loc) or "(root)"
            name = _env_name(dotted)
            if name and _has(env_values, loc[:2]):
                where = name
            elif len(loc) == 1 and _has(env_values, loc):
                where = ", ".join(
                    n for n, (sec, _) in ENV_KEYS.items() if sec == loc[0] and os.environ.get(n)
                )
            elif _has(file_values, loc[:1]):
                where = str(file)
            else:
                where = "default"
            reason = error["msg"].removeprefix("Value error, ")
            problems.append(Problem(dotted, reason, where))
        raise InvalidConfiguration(problems) from None


@dataclass(frozen=True)
class Entry:
    path: str
    value: Any
    origin: Origin
    source: str  # the variable, the file, or "default"


def _leaves(model: BaseModel, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel) and prefix == ():
            yield from _leaves(value, (name,))
        else:
            yield (*prefix, name), value


def describe() -> list[Entry]:
    """Every key of the effective configuration with its value and origin (secrets masked)."""
    file = Path(config_path())
    config = load_config()
    file_values, env_values = _file_values(file), _env_values(os.environ)
    entries = []
    for loc, raw in _leaves(config):
        dotted = ".".join(loc)
        value = _shown(raw)
        if _has(env_values, loc):
            entries.append(Entry(dotted, value, "env", _env_name(dotted) or "env"))
        elif _has(file_values, loc):
            entries.append(Entry(dotted, value, "file", str(file)))
        else:
            entries.append(Entry(dotted, value, "default", "default"))
    return entries


def _shown(raw: Any) -> Any:
    if isinstance(raw, SecretStr):
        return "********" if raw.get_secret_value() else ""
    if isinstance(raw, BaseModel):
        return raw.model_dump(mode="json")
    if isinstance(raw, dict):
        return {k: v.model_dump(mode="json") if isinstance(v, BaseModel) else v for k, v in raw.items()}
    return raw
