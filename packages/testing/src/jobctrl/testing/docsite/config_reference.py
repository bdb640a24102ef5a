"""The configuration reference, read from the settings model and from the code's environment reads.

Both sources are introspected, so a key added to the model or a variable read in the code shows up
on the next build:

* ``config.toml``: every ``pydantic_settings.BaseSettings`` class of the settings modules
  (``SETTINGS_MODULES``; a module that does not exist is skipped).  A field whose type is a pydantic
  model is a ``[section]``; each of its fields is a key, with its type, default, constraints and the
  environment variable that overrides it (from the module's ``ENV_KEYS`` table when it has one).
  Plain dataclasses of those modules (the older runtime settings) are listed after it;
* every environment variable the product packages read by name (``os.environ.get``/``os.getenv``/
  ``os.environ[...]`` with a literal name, found with ``ast``), plus the ``ENV_KEYS`` table, with the
  module that reads each one.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from jobctrl.testing.docsite.error_codes import PRODUCT_PACKAGES

# The user-facing settings model (ADR 0140).  ``jobctrl.runtime.settings`` holds the live runtime
# toggles the worker re-reads; they are keys of the same model (``[worker]``, ``[apply]``).
SETTINGS_MODULES: tuple[str, ...] = ("jobctrl.runtime.config",)


@dataclass(frozen=True)
class EnvRead:
    name: str
    default: str | None
    module: str


@dataclass(frozen=True)
class SettingKey:
    owner: str  # the model class
    section: str  # "" for a top-level key
    name: str
    type: str
    default: str
    constraints: str
    env: str | None


def _modules() -> Iterator[types.ModuleType]:
    for name in SETTINGS_MODULES:
        try:
            yield importlib.import_module(name)
        except ModuleNotFoundError:
            continue


def _env_table(module: types.ModuleType) -> dict[tuple[str, ...], str]:
    table = getattr(module, "ENV_KEYS", None)
    if not isinstance(table, dict):
        return {}
    return {tuple(path): var for var, path in table.items()}


def _type_text(annotation: Any) -> str:
    """A short, readable type: ``int``, ``str | None``, ``list[str]``, ``'a' | 'b'``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type_text(args[0])
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_text(a) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(_type_text(a) for a in args)}]"
    if annotation is type(None):
        return "None"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return "—"
    return f"`{value!r}`"


def _constraints(info: FieldInfo) -> str:
    parts = [str(m) for m in info.metadata]
    return ", ".join(parts).replace("|", "\\|")


def settings_keys() -> tuple[SettingKey, ...]:
    """Every key of every settings model, section by section, in declaration order."""
    keys: list[SettingKey] = []
    for module in _modules():
        env = _env_table(module)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            owner = f"{module.__name__}.{cls_name}"
            if issubclass(cls, BaseSettings) and cls is not BaseSettings:
                for section, info in cls.model_fields.items():
                    model = info.annotation
                    if isinstance(model, type) and issubclass(model, BaseModel):
                        for name, sub in model.model_fields.items():
                            keys.append(
                                SettingKey(
                                    owner,
                                    section,
                                    name,
                                    _type_text(sub.annotation),
                                    _default(sub),
                                    _constraints(sub),
                                    env.get((section, name)),
                                )
                            )
                    else:
                        keys.append(
                            SettingKey(
                                owner,
                                "",
                                section,
                                _type_text(info.annotation),
                                _default(info),
                                _constraints(info),
                                env.get((section,)),
                            )
                        )
            elif dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__:
                for f in dataclasses.fields(cls):
                    value: Any = f.default
                    if f.default_factory is not dataclasses.MISSING:
                        value = f.default_factory()
                    default = "required" if value is dataclasses.MISSING else f"`{value!r}`"
                    keys.append(SettingKey(owner, "", f.name, _type_text(f.type), default, "", None))
    return tuple(keys)


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return node.value if isinstance(node.value, str) else repr(node.value)
    return None


def _env_read(node: ast.AST, module: str) -> EnvRead | None:
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        is_get = isinstance(func, ast.Attribute) and func.attr == "get" and _is_environ(func.value)
        is_getenv = isinstance(func, ast.Attribute) and func.attr == "getenv"
        if is_get or is_getenv:
            name = _literal(node.args[0])
            if name:
                default = _literal(node.args[1]) if len(node.args) > 1 else None
                return EnvRead(name, default, module)
    if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(node.ctx, ast.Load):
        name = _literal(node.slice)
        if name:
            return EnvRead(name, None, module)
    return None


def environment_reads() -> tuple[EnvRead, ...]:
    found: dict[tuple[str, str], EnvRead] = {}
    for package in PRODUCT_PACKAGES:
        mod = importlib.import_module(package)
        for root in getattr(mod, "__path__", []):
            for path in sorted(Path(root).rglob("*.py")):
                if "tests" in path.parts:
                    continue
                rel = path.relative_to(Path(root)).with_suffix("")
                module = ".".join((package, *rel.parts)).removesuffix(".__init__")
                for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                    read = _env_read(node, module)
                    if read is not None:
                        found.setdefault((read.name, read.module), read)
    for settings in _modules():
        for key, var in _env_table(settings).items():
            where = f"{settings.__name__} ({'.'.join(key)})"
            found.setdefault((var, settings.__name__), EnvRead(var, None, where))
    return tuple(sorted(found.values(), key=lambda r: (r.name, r.module)))


def config_reference() -> str:
    out = [
        "# Configuration reference",
        "",
        "*Generated at build time by `jobctrl.testing.docsite.config_reference` from the settings model"
        f" ({', '.join(f'`{m}`' for m in SETTINGS_MODULES)}) and from the environment variables the"
        " product packages read.  Do not edit: change the code and rebuild.*",
        "",
        "The configuration file is `$JOBCTRL_HOME/config.toml` (`JOBCTRL_HOME` defaults to `~/.jobctrl`)."
        "  An environment variable overrides the file; `jobctrl config show` prints each value in force"
        " and where it came from.  Unknown keys are refused.",
    ]
    owner: str | None = None
    section: str | None = None
    for key in settings_keys():
        if key.owner != owner:
            owner, section = key.owner, None
            out += ["", f"## `{owner}`"]
        if key.section != section:
            section = key.section
            title = f"`[{section}]`" if section else "keys"
            out += [
                "",
                f"### {title}",
                "",
                "| key | type | default | constraints | environment |",
                "|---|---|---|---|---|",
            ]
        env = f"`{key.env}`" if key.env else ""
        type_text = key.type.replace("|", "\\|")
        out.append(f"| `{key.name}` | `{type_text}` | {key.default} | {key.constraints} | {env} |")
    out += [
        "",
        "## Environment variables",
        "",
        "Every variable the product packages read by name, with the default written where it is read"
        ' (—: absence is handled by the code, usually as "unset").',
        "",
        "| variable | default | read by |",
        "|---|---|---|",
    ]
    merged: dict[str, list[EnvRead]] = {}
    for read in environment_reads():
        merged.setdefault(read.name, []).append(read)
    for name, reads in sorted(merged.items()):
        defaults = sorted({r.default for r in reads if r.default is not None})
        default = ", ".join(f"`{d!r}`" if d == "" else f"`{d}`" for d in defaults) if defaults else "—"
        modules = "<br/>".join(f"`{r.module}`" for r in reads)
        out.append(f"| `{name}` | {default} | {modules} |")
    return "\n".join(out) + "\n"
