"""The one HTML-to-text parser (ADR 0266): each caller's rules give that caller's text."""

from __future__ import annotations

import pytest

from jobctrl.kernel.html import DESCRIPTION, EXTRACTED, POSTING, VISIBLE_PAGE, html_text
from jobctrl.kernel.text import plain_text

LIST = "<h2>Role</h2><p>Build  things.</p><ul><li>Python</li><li></li><li>SQL</li></ul><script>x()</script>"


def test_a_description_reads_blocks_as_lines_and_items_with_a_mark() -> None:
    assert html_text(LIST, DESCRIPTION) == "Role\nBuild things.\n- Python\n- SQL"


def test_a_description_without_markup_is_only_stripped() -> None:
    assert html_text("  two  spaces stay \n", DESCRIPTION) == "two  spaces stay"


def test_a_description_keeps_a_non_breaking_space_and_drops_styles() -> None:
    html = "<style>p{}</style><p>a&nbsp;b</p><h6>no</h6><span>break</span>"
    assert html_text(html, DESCRIPTION) == "a\xa0b\nnobreak"


def test_a_visible_page_drops_noscript_marks_no_items_and_breaks_on_layout_blocks() -> None:
    html = (
        "<header>Acme</header><noscript>enable JS</noscript><article><h1>Team</h1>"
        "<ul><li>Ada&nbsp;Lovelace, CTO</li><li>ada@acme.test</li></ul></article><footer>(c)</footer>"
    )
    assert html_text(html, VISIBLE_PAGE) == "Acme\nTeam\nAda Lovelace, CTO\nada@acme.test\n(c)"


def test_a_visible_page_is_bounded_and_drops_a_cut_off_tag() -> None:
    assert html_text("<p>" + "x" * 300_000 + "</p>", VISIBLE_PAGE) == "x" * 200_000
    assert html_text("<p>kept</p><span class=", VISIBLE_PAGE) == "kept"
    assert html_text("<p>kept</p><span class=", DESCRIPTION) == "kept\n<span class="


def test_extracted_text_breaks_only_on_opening_tags_and_keeps_script_text() -> None:
    assert html_text("<p>one</p>two<li>three</li><script>s</script>", EXTRACTED) == "onetwo\n- threes"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("&lt;p&gt;Hello&lt;/p&gt;&lt;li&gt;item&lt;/li&gt;", "Hello\n- item"),  # entity-escaped markup
        ("plain  text, no tags", "plain  text, no tags"),
        ("<p>a&nbsp;&nbsp;b</p><li></li><h6>end</h6>", "a b\n-\nend"),
    ],
)
def test_posting_text_unescapes_markup_folds_non_breaking_spaces_and_keeps_empty_items(
    value: str, expected: str
) -> None:
    assert plain_text(value) == expected
    if "&lt;" not in value and "<" in value:
        assert html_text(value, POSTING) == expected


# The three rules in which a posting description and a visible page differ on purpose (ADR 0325):
# each test feeds both the same markup, so a change that merges them fails here.


def test_a_description_marks_list_items_and_a_visible_page_does_not() -> None:
    html = "<ul><li>Python</li><li></li><li>SQL</li></ul>"
    assert html_text(html, DESCRIPTION) == "- Python\n- SQL"
    assert html_text(html, VISIBLE_PAGE) == "Python\nSQL"


def test_a_description_keeps_noscript_text_and_a_visible_page_drops_it() -> None:
    html = "<p>Role</p><noscript>Apply by mail</noscript>"
    assert html_text(html, DESCRIPTION) == "Role\nApply by mail"
    assert html_text(html, VISIBLE_PAGE) == "Role"


def test_a_description_keeps_a_cut_off_final_tag_as_text_and_a_visible_page_drops_it() -> None:
    html = "<p>Questions?</p>Write to <jobs@acme.test"
    assert html_text(html, DESCRIPTION) == "Questions?\nWrite to <jobs@acme.test"
    assert html_text(html, VISIBLE_PAGE) == "Questions?\nWrite to"
