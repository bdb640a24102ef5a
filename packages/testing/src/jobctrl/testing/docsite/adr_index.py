"""The decision records' index for the site, read from the ADR files themselves.

``docs/adr/README.md`` is the index for readers of the repository and is kept by hand; the site's
index is generated from each ``NNNN-*.md`` file's first heading and ``Status`` line, so an ADR that
lands without an index line still appears on the site.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jobctrl.testing.docsite.context_map import workspace_root

_HEADING = re.compile(r"^#\s+(?:\d{4}\.\s*)?(?P<title>.+?)\s*$", re.MULTILINE)
_STATUS = re.compile(r"^-\s*Status:\s*(?P<status>.+?)\s*$", re.MULTILINE | re.IGNORECASE)


@dataclass(frozen=True)
class Adr:
    number: str
    file: str
    title: str
    status: str


def adrs(folder: Path | None = None) -> tuple[Adr, ...]:
    folder = folder or workspace_root() / "docs" / "adr"
    found: list[Adr] = []
    for path in sorted(folder.glob("[0-9][0-9][0-9][0-9]-*.md")):
        number = path.name[:4]
        if number == "0000":
            continue
        text = path.read_text()
        heading = _HEADING.search(text)
        status = _STATUS.search(text)
        found.append(
            Adr(
                number=number,
                file=path.name,
                title=heading.group("title") if heading else path.stem[5:].replace("-", " "),
                status=status.group("status") if status else "—",
            )
        )
    return tuple(found)


def adr_index_page() -> str:
    out = [
        "# Architecture decision records",
        "",
        "*Generated at build time from the files in `docs/adr/` (each one's heading and Status line).*"
        "  A new decision copies `0000-template.md` to the next free number of its area (Date, Status,"
        " Context, Decision, Consequences); numbers were reserved in blocks, so gaps are expected.",
        "",
        "| # | Decision | Status |",
        "|---|---|---|",
    ]
    for adr in adrs():
        title = adr.title.replace("|", "\\|")
        out.append(f"| {adr.number} | [{title}]({adr.file}) | {adr.status} |")
    return "\n".join(out) + "\n"
