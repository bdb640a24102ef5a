"""The context map page: a Mermaid flowchart and tables, from the facts ``context_map`` reads."""

from __future__ import annotations

from collections.abc import Iterable

from jobctrl.testing.docsite.context_map import CONTEXTS, ContextMap, build_context_map


def mermaid(cmap: ContextMap) -> str:
    """A Mermaid flowchart: contexts, the event flows between them, the projections and the runtime."""
    lines = ["flowchart LR"]
    lines.append('  subgraph contexts["Bounded contexts"]')
    for ctx in cmap.contexts:
        lines.append(f'    {ctx.name}["{ctx.name}<br/>{len(ctx.publishes)} events"]')
    lines.append("  end")
    for ctx in cmap.contexts:
        for other, names in ctx.reads.items():
            lines.append(f"  {other} -- {len(names)} events --> {ctx.name}")
        for other in ctx.types_from:
            lines.append(f"  {other} -. types .-> {ctx.name}")
    lines.append('  projections[("projections<br/>' + str(len(cmap.projections)) + ' read models")]')
    folded: dict[str, int] = {}
    for proj in cmap.projections:
        for context, names in proj.reads.items():
            folded[context] = folded.get(context, 0) + len(names)
    for context in CONTEXTS:
        if context in folded:
            lines.append(f"  {context} -. {folded[context]} folds .-> projections")
    lines.append('  runtime{{"runtime<br/>CLI, API, worker"}}')
    for context in cmap.runtime_uses:
        lines.append(f"  runtime --> {context}")
    for context, names in cmap.runtime_reads.items():
        lines.append(f"  {context} -- {len(names)} events --> runtime")
    lines.append("  runtime --> projections")
    return "\n".join(lines) + "\n"


def _code_list(names: Iterable[str]) -> str:
    items = [f"`{n}`" for n in names]
    return ", ".join(items) if items else "—"


def context_map_page() -> str:
    cmap = build_context_map()
    out: list[str] = [
        "# Context map",
        "",
        "*Generated at build time from the code by `jobctrl.testing.docsite.context_map`: each"
        " context's `events.EVENTS`, the cross-context event imports in its source, the folds of"
        " `jobctrl.projections.OPERATIONS`, the runtime's imports and the import-linter contracts in"
        " `pyproject.toml`.  Do not edit: change the code and rebuild.*",
        "",
        "An arrow `A → B` means context B's code imports events that A publishes (to react to them or"
        " to read their values); a dotted arrow means a projection folds that context's events.",
        "",
        "```mermaid",
        mermaid(cmap).rstrip("\n"),
        "```",
        "",
        "## Contexts",
        "",
        "| context | what it is | owns (aggregates and their streams; tables) | publishes | reads from |",
        "|---|---|---|---|---|",
    ]
    for ctx in cmap.contexts:
        reads = "; ".join(f"{other} ({len(names)})" for other, names in ctx.reads.items()) or "—"
        owns = ", ".join([*ctx.aggregates, *(f"table `{t}`" for t in ctx.tables)]) or "—"
        link = f"[`{ctx.name}`](#{ctx.name})"
        out.append(f"| {link} | {ctx.summary} | {owns} | {len(ctx.publishes)} events | {reads} |")
    for ctx in cmap.contexts:
        out += ["", f"### {ctx.name}", "", ctx.summary, ""]
        if ctx.aggregates or ctx.tables:
            owns = ", ".join([*ctx.aggregates, *(f"table `{t}`" for t in ctx.tables)])
            out += [f"**Owns**: {owns}", ""]
        out.append(f"**Publishes** (`jobctrl.{ctx.name}.events`): {_code_list(ctx.publishes)}")
        out.append("")
        if ctx.upcasters:
            out.append(f"**Upcasters**: {_code_list(ctx.upcasters)}")
            out.append("")
        if ctx.types_from:
            out.append(
                f"**Shares value types from**: {_code_list(f'jobctrl.{c}.events' for c in ctx.types_from)}"
            )
            out.append("")
        if ctx.reads:
            out.append("**Reads**:")
            out.append("")
            for other, names in ctx.reads.items():
                out.append(f"- from {other}: {_code_list(names)}")
        else:
            out.append("**Reads**: no other context's events.")
        readers = [p.name for p in cmap.projections if ctx.name in p.reads]
        out += ["", f"**Folded by**: {_code_list(readers)}"]
    out += [
        "",
        "## Projections",
        "",
        "One runner folds them all under the `operations` watermark (see"
        " [`ProjectionRunner`][jobctrl.projections.ProjectionRunner]).",
        "",
        "| projection | tables | folds events of |",
        "|---|---|---|",
    ]
    for proj in cmap.projections:
        reads = "; ".join(f"{c}: {_code_list(n)}" for c, n in proj.reads.items())
        out.append(f"| `{proj.name}` | {_code_list(proj.tables)} | {reads} |")
    out += [
        "",
        "## Runtime",
        "",
        "`jobctrl.runtime` is composition only (settings, the Temporal worker and client, the HTTP API,"
        f" the CLI).  It imports the public faces of: {_code_list(cmap.runtime_uses)}, and the projections.",
        "It reads these events (to react to them: outboxes, follow-ups, the SSE stream, the demo):",
        "",
        *[f"- from {c}: {_code_list(n)}" for c, n in cmap.runtime_reads.items()],
        "",
        "The contexts never import one another (the independence contract below): a fact one context"
        " needs from another reaches it through an orchestration workflow (an activity's input, built"
        " from the first context's result) or through the runtime reacting to a published event.",
        "",
        "## Import contracts",
        "",
        "Checked by `lint-imports` in `make check`.",
        "",
        "| contract | type | rule |",
        "|---|---|---|",
    ]
    for contract in cmap.contracts:
        out.append(f"| {contract.name} | {contract.kind} | {contract.detail} |")
    return "\n".join(out) + "\n"
