"""Fail when a built page would fetch anything from the network (``python -m ... SITE_DIR``).

The site must work offline: no web fonts, no CDN scripts or stylesheets, no remote images.  Links
the reader may follow (``<a href="https://...">``) are fine; resources the browser loads by itself
(``script src``, ``link href`` other than a plain hyperlink relation, ``img``/``iframe``/``source``
``src``, CSS ``url(...)`` and ``@import``) must be local.  Material's Mermaid loader fetches a CDN
script only for ``pre.mermaid`` blocks, so those must not appear either.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
_CSS_REMOTE = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])(?:https?:)?//""", re.IGNORECASE)


class _Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.remote: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag in ("script", "img", "iframe", "source", "audio", "video", "embed") and _REMOTE.match(
            values.get("src", "")
        ):
            self.remote.append(f"<{tag} src={values['src']}>")
        if tag == "link" and _REMOTE.match(values.get("href", "")):
            rel = values.get("rel", "").lower()
            if rel not in ("", "canonical", "alternate", "author", "license", "help"):
                self.remote.append(f"<link rel={rel} href={values['href']}>")
        if tag == "pre" and "mermaid" in values.get("class", "").split():
            self.remote.append("<pre class=mermaid> (Material would fetch Mermaid from a CDN)")


def remote_resources(site: Path) -> list[str]:
    """Every remote resource a page or stylesheet of ``site`` would load, as ``path: what``."""
    problems: list[str] = []
    for page in sorted(site.rglob("*.html")):
        parser = _Resources()
        parser.feed(page.read_text(errors="replace"))
        problems += [f"{page.relative_to(site)}: {r}" for r in parser.remote]
    for sheet in sorted(site.rglob("*.css")):
        if _CSS_REMOTE.search(sheet.read_text(errors="replace")):
            problems.append(f"{sheet.relative_to(site)}: a remote url() or @import")
    return problems


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else ".site")
    if not (site / "index.html").exists():
        print(f"{site} holds no built site", file=sys.stderr)
        return 2
    problems = remote_resources(site)
    for problem in problems:
        print(f"remote resource: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
