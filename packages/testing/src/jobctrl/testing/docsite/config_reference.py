"""The configuration reference, read from the settings model and from the code's environment reads.

Two sources, both introspected:

* the settings classes of the settings modules (``SETTINGS_MODULES``; a module that does not exist
  yet is skipped): dataclasses and pydantic models (pydantic-settings included), each field with
  its type, default and description;
* every environment variable the product packages read (``os.environ.get``/``os.getenv``/
  ``os.environ[...]`` with a literal name, found in their source by ``ast``), with its literal
  default and the module that reads it.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobctrl.testing.docsite.error_codes import PRODUCT_PACKAGES

SETTINGS_MODULES: tuple[str, ...] = ("jobctrl.runtime.settings", "jobctrl.runtime.config")


@dataclass(frozen=True)
class EnvRead:
    name: str
    default: str | None
    module: str


@dataclass(frozen=True)
class SettingField:
    owner: str
    name: str
    type: str
    default: str
    description: str


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return repr(node.value) if not isinstance(node.value, str) else node.value
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
    return tuple(sorted(found.values(), key=lambda r: (r.name, r.module)))


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


def _fmt_default(value: Any) -> str:
    if value is dataclasses.MISSING or value is inspect.Parameter.empty:
        return "required"
    return f"`{value!r}`"


def settings_fields() -> tuple[SettingField, ...]:
    fields: list[SettingField] = []
    for name in SETTINGS_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            owner = f"{module.__name__}.{cls_name}"
            model_fields = getattr(cls, "model_fields", None)
            if isinstance(model_fields, dict):  # pydantic (and pydantic-settings) models
                for fname, info in model_fields.items():
                    default = (
                        "required"
                        if info.is_required()
                        else f"`{info.get_default(call_default_factory=True)!r}`"
                    )
                    fields.append(
                        SettingField(
                            owner, fname, _type_text(info.annotation), default, info.description or ""
                        )
                    )
            elif dataclasses.is_dataclass(cls):
                for f in dataclasses.fields(cls):
                    value: Any = f.default
                    if f.default_factory is not dataclasses.MISSING:
                        value = f.default_factory()
                    fields.append(SettingField(owner, f.name, _type_text(f.type), _fmt_default(value), ""))
    return tuple(fields)


def _type_text(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")


def config_reference() -> str:
    out = [
        "# Configuration reference",
        "",
        "*Generated at build time by `jobctrl.testing.docsite.config_reference` from the settings model"
        f" ({', '.join(f'`{m}`' for m in SETTINGS_MODULES)}, where present) and from the environment"
        " variables the product packages read.  Do not edit: change the code and rebuild.*",
        "",
        "## Settings model",
        "",
    ]
    fields = settings_fields()
    owner = None
    for f in fields:
        if f.owner != owner:
            owner = f.owner
            out += ["", f"### `{owner}`", "", "| field | type | default | description |", "|---|---|---|---|"]
        out.append(f"| `{f.name}` | `{f.type}` | {f.default} | {f.description} |")
    out += [
        "",
        "## Environment variables",
        "",
        "Every variable read by name in the product packages, with the default written at the point of"
        ' reading (none: the code treats absence itself, usually as "unset").',
        "",
        "| variable | default | read by |",
        "|---|---|---|",
    ]
    merged: dict[str, list[EnvRead]] = {}
    for read in environment_reads():
        merged.setdefault(read.name, []).append(read)
    for name, reads in sorted(merged.items()):
        defaults = sorted({r.default for r in reads if r.default is not None})
        default = ", ".join(f"`{d}`" for d in defaults) if defaults else "—"
        modules = "<br/>".join(f"`{r.module}`" for r in reads)
        out.append(f"| `{name}` | {default} | {modules} |")
    return "\n".join(out) + "\n"
