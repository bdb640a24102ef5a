"""The generated reference pages say what the code says, checked by routes other than the generators'."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import typer.main

from jobctrl.domain_types.registry import registry
from jobctrl.kernel.errors import NON_RETRYABLE_CODES, RETRYABLE_CODES
from jobctrl.projections import OPERATIONS
from jobctrl.runtime.config import ENV_KEYS, JobctrlConfig
from jobctrl.testing.docsite import (
    adr_index,
    cli_reference,
    config_reference,
    context_map,
    context_map_page,
    error_codes,
    offline,
)

ROOT = context_map.workspace_root()
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def cmap() -> context_map.ContextMap:
    return context_map.build_context_map()


def test_every_registered_event_is_published_by_exactly_one_context(cmap: context_map.ContextMap) -> None:
    published = [name for ctx in cmap.contexts for name in ctx.publishes]
    assert sorted(published) == sorted(registry().names)
    assert len(published) == len(set(published))
    assert [c.name for c in cmap.contexts] == list(context_map.CONTEXTS)


def test_projections_on_the_map_fold_what_their_folds_fold(cmap: context_map.ContextMap) -> None:
    assert [p.name for p in cmap.projections] == [p.name for p in OPERATIONS]
    for facts, projection in zip(cmap.projections, OPERATIONS, strict=True):
        assert {n for names in facts.reads.values() for n in names} == set(projection.event_types)
        assert facts.tables == tuple(t.name for t in projection.tables)


def test_each_context_owns_the_aggregates_its_package_defines(cmap: context_map.ContextMap) -> None:
    owns = {ctx.name: ctx for ctx in cmap.contexts}
    # Independent route: the source text of each context, searched for stream prefixes.
    for name in context_map.CONTEXTS:
        src = ROOT / "contexts" / name / "src"
        prefixes = set(re.findall(r'^    stream_prefix = "([a-z-]+)"', _all_source(src), re.MULTILINE))
        shown = {a.split("(`")[1].removesuffix("-…`)") for a in owns[name].aggregates if "(`" in a}
        assert prefixes == shown, name
    assert "llm_spend" in owns["orchestration"].tables
    assert "contact_subject_keys" in owns["contact"].tables


def _all_source(src: Path) -> str:
    return "\n".join(p.read_text() for p in src.rglob("*.py") if "tests" not in p.parts)


def test_the_map_lists_every_import_contract(cmap: context_map.ContextMap) -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert [c.name for c in cmap.contracts] == [c["name"] for c in contracts]


def test_a_cross_context_event_import_becomes_a_read(tmp_path: Path) -> None:
    module = tmp_path / "reacts.py"
    module.write_text(
        "from jobctrl.scoring.events import JobScored\nfrom jobctrl.discovery.events import AtsKind\n"
        "WANTED = ('JobEnriched',)\n"
    )
    imported, strings = context_map._referenced_names([module], "materials")
    assert imported == {"scoring": {"JobScored"}, "discovery": {"AtsKind"}}
    assert "JobEnriched" in strings


def test_the_page_draws_every_context_and_projection(cmap: context_map.ContextMap) -> None:
    page = context_map_page.context_map_page()
    for ctx in cmap.contexts:
        assert f"### {ctx.name}" in page
        assert f'{ctx.name}["{ctx.name}<br/>{len(ctx.publishes)} events"]' in page
    for projection in OPERATIONS:
        assert f"| `{projection.name}` |" in page


def test_the_cli_reference_covers_every_command_and_option() -> None:
    from jobctrl.runtime.cli import app  # noqa: PLC0415 - heavy

    page = cli_reference.cli_reference()
    for path, command in cli_reference._walk(typer.main.get_command(app), ("jobctrl",)):
        if command.hidden:
            continue
        assert f"`{' '.join(path)}`" in page
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt in page, f"{' '.join(path)} {opt}"


def test_the_configuration_reference_covers_the_settings_model_and_every_environment_read() -> None:
    page = config_reference.config_reference()
    for section, info in JobctrlConfig.model_fields.items():
        assert f"### `[{section}]`" in page
        assert info.annotation is not None
        for name in info.annotation.model_fields:
            assert f"| `{name}` |" in page
    for variable, (_section, name) in ENV_KEYS.items():
        assert f"| `{name}` |" in page
        assert f"`{variable}` |" in page
    # An independent route to the same fact: a regular expression over the product sources.
    pattern = re.compile(r"""(?:environ\.get|getenv|environ\[)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")
    expected: set[str] = set()
    for src in [*ROOT.glob("packages/*/src"), *ROOT.glob("contexts/*/src"), ROOT / "projections/src"]:
        for path in src.rglob("*.py"):
            if "testing" in path.relative_to(src).parts[:2]:
                continue
            expected |= set(pattern.findall(path.read_text()))
    assert expected, "the scan found no environment variable at all"
    for name in expected:
        assert f"| `{name}` |" in page


def test_every_base_error_code_has_an_operator_action_and_every_code_is_listed() -> None:
    assert set(error_codes.ACTIONS) == RETRYABLE_CODES | NON_RETRYABLE_CODES
    page = error_codes.error_codes_page()
    kinds = error_codes.error_kinds()
    assert {"configuration", "unknown_event_type", "schema_parity"} <= {k.code for k in kinds}
    for kind in kinds:
        assert f"| `{kind.code}` |" in page


def test_the_site_lists_every_adr_with_its_title_and_status() -> None:
    page = adr_index.adr_index_page()
    files = sorted(p.name for p in (DOCS / "adr").glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert files and files[0] == "0000-template.md"
    for name in files[1:]:
        assert f"]({name}) |" in page
    assert "0000-template.md)" not in page
    first = (DOCS / "adr" / files[1]).read_text().splitlines()[0].split(". ", 1)[1]
    assert f"[{first}]({files[1]}) | accepted |" in page


def test_the_offline_check_catches_remote_resources(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<a href="https://example.org/">a link is fine</a>'
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'
        '<script src="//cdn.example.org/x.js"></script><pre class="mermaid">graph</pre>'
    )
    (tmp_path / "style.css").write_text("body { background: url('https://example.org/x.png') }")
    problems = offline.remote_resources(tmp_path)
    assert len(problems) == 4, problems
    (tmp_path / "index.html").write_text('<a href="https://example.org/">ok</a><script src="a.js"></script>')
    (tmp_path / "style.css").write_text("body { background: url('x.png') }")
    assert offline.remote_resources(tmp_path) == []
