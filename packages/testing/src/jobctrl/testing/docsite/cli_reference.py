"""The CLI reference, read from the live Typer application through Click's introspection."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import typer.main

# Typer ships its own copy of Click (``typer._click``), so the tree is read by duck typing: a group
# has ``commands``; an option has ``opts`` and ``param_type_name == "option"``.
Command = Any


def _walk(command: Command, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Command]]:
    yield path, command
    commands = getattr(command, "commands", None)
    if isinstance(commands, dict):
        for name in sorted(commands):
            yield from _walk(commands[name], (*path, name))


def _unstyle(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _param_row(param: Any, ctx: Any) -> str:
    """One row per parameter, from the same help record ``--help`` prints."""
    record = param.get_help_record(ctx)
    if param.param_type_name == "option" and record:
        names, text = record
        return f"| `{_cell(names)}` | {_cell(_unstyle(text))} |"
    required = "required" if param.required else "optional"
    text = _unstyle(getattr(param, "help", None) or "")
    return f"| `{(param.name or '').upper()}` | argument, {required}. {_cell(text)} |"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def cli_reference() -> str:
    from jobctrl.runtime.cli import app  # noqa: PLC0415 - the CLI is imported only when asked

    root = typer.main.get_command(app)
    out = [
        "# CLI reference",
        "",
        "*Generated at build time from the `jobctrl` Typer application itself"
        " (`jobctrl.testing.docsite.cli_reference`).  `jobctrl COMMAND --help` prints the same.*",
        "",
    ]
    for path, command in _walk(root, ("jobctrl",)):
        if command.hidden:
            continue
        ctx = command.context_class(command, info_name=" ".join(path))
        level = "#" * min(len(path) + 1, 4)
        out += [f"{level} `{' '.join(path)}`", ""]
        if command.help:
            out += [_unstyle(command.help).strip(), ""]
        out += ["```text", command.get_usage(ctx).strip(), "```", ""]
        params = [p for p in command.get_params(ctx) if p.name != "help" and not getattr(p, "hidden", False)]
        if params:
            out += ["| parameter | meaning |", "|---|---|"]
            out += [_param_row(p, ctx) for p in params]
            out.append("")
    return "\n".join(out)
