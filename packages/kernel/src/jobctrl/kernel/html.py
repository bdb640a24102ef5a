"""HTML reduced to plain text: the one parser every caller uses, each with its named rules (ADR 0266).

Callers differ in what they need and their outputs are stored (fingerprints, scores, extracted
facts), so each keeps its exact rules, written down here beside the others instead of in a copy of
the parser:

- ``DESCRIPTION`` — discovery's vendor descriptions: blocks break lines, list items read ``- ``,
  scripts and styles are dropped, a lone ``-`` line (an empty item) goes, text without ``<`` is
  only stripped;
- ``VISIBLE_PAGE`` — contact research's fetched pages: the page's visible text (``noscript`` too is
  dropped), page-layout blocks (``article``, ``header``, ``footer``) break lines, no item marks, all
  white space folded, at most 200,000 characters, a cut-off tag at the end dropped;
- ``POSTING`` — :func:`jobctrl.kernel.text.plain_text` (scoring's and the facts' posting text):
  like ``DESCRIPTION`` with ``h6`` a block and non-breaking spaces folded;
- ``EXTRACTED`` — enrichment's descriptions from a page's JSON-LD: only opening tags break lines,
  no element's text is dropped, a cut-off tag at the end is.

``DESCRIPTION`` and ``VISIBLE_PAGE`` differ on purpose (ADR 0325): a description is a whole vendor
field, stored and fingerprinted, read as a posting; a visible page is what a script-running browser
shows, used only as a prompt.  Hence: a description marks list items (a requirements list stays a
list), keeps ``noscript`` (a vendor field runs no scripts; it is the author's text) and keeps a
cut-off final tag as text (the field is complete, so it is the author's); a visible page marks no
items (its lists are navigation), drops ``noscript`` (not shown when scripts run) and drops a cut-off
tag (markup noise in a prompt).  Changing one of these in ``DESCRIPTION`` moves stored fingerprints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
_SCRIPTS = frozenset({"script", "style"})


@dataclass(frozen=True)
class TextRules:
    """How one caller reduces HTML to text."""

    blocks: frozenset[str]  # tags that break the line
    skip: frozenset[str] = _SCRIPTS  # tags whose content is dropped
    item_mark: str = "- "  # written at the start of a list item's line ("" for none)
    spaces: str = r"[ \t\r\f\v]+"  # folded into one space on every line
    end_breaks: bool = True  # a block's end tag breaks the line too, not only its start tag
    drop_bare_marks: bool = False  # a line that is only the item mark (an empty item) is dropped
    untagged_stripped: bool = False  # text without ``<`` is returned stripped, not parsed
    limit: int | None = None  # at most this many characters
    flush_tail: bool = True  # an unterminated tag at the very end is kept as text (else dropped)


DESCRIPTION = TextRules(
    blocks=_HEADINGS | {"p", "br", "li", "div", "h5", "ul", "ol", "tr", "section"},
    drop_bare_marks=True,
    untagged_stripped=True,
)
VISIBLE_PAGE = TextRules(
    blocks=_HEADINGS | {"p", "div", "li", "br", "tr", "section", "article", "header", "footer"},
    skip=_SCRIPTS | {"noscript"},
    item_mark="",
    spaces=r"\s+",
    limit=200_000,
    flush_tail=False,
)
POSTING = TextRules(
    blocks=_HEADINGS | {"p", "br", "li", "div", "h5", "h6", "ul", "ol", "tr", "section"},
    spaces=r"[ \t\r\f\v\xa0]+",
)
EXTRACTED = TextRules(
    blocks=_HEADINGS | {"p", "br", "li", "div", "ul", "ol", "tr"},
    skip=frozenset(),
    end_breaks=False,
    flush_tail=False,
)


class _Text(HTMLParser):
    def __init__(self, rules: TextRules) -> None:
        super().__init__(convert_charrefs=True)
        self.rules = rules
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.rules.skip:
            self._skip += 1
        elif tag in self.rules.blocks:
            self.parts.append("\n" + self.rules.item_mark if tag == "li" else "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.rules.skip and self._skip:
            self._skip -= 1
        elif tag in self.rules.blocks and self.rules.end_breaks:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(markup: str, rules: TextRules) -> str:
    """``markup``'s text under ``rules``: one line per block, white space folded, empty lines gone."""
    if rules.untagged_stripped and "<" not in markup:
        return markup.strip()
    parser = _Text(rules)
    parser.feed(markup)
    if rules.flush_tail:
        parser.close()
    spaces = re.compile(rules.spaces)
    lines = (spaces.sub(" ", line).strip() for line in "".join(parser.parts).splitlines())
    bare = rules.item_mark.strip()
    text = "\n".join(line for line in lines if line and not (rules.drop_bare_marks and line == bare))
    return text if rules.limit is None else text[: rules.limit]
