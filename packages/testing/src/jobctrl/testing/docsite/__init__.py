"""Generators for the documentation site's reference pages (dev only).

Each generator reads the code that is running — the event registry, each context's ``events``
module, the import-linter contracts, the projections, the Typer CLI, the settings model, the error
taxonomy — and returns Markdown.  The MkDocs hook (``docs/hooks.py``) writes their output as pages
at build time, so a page cannot fall behind the code; the tests in ``docs/tests`` check what the
generators claim against the code by other routes.
"""

from __future__ import annotations

from collections.abc import Callable

from jobctrl.testing.docsite import adr_index as _adrs
from jobctrl.testing.docsite import cli_reference as _cli
from jobctrl.testing.docsite import config_reference as _config
from jobctrl.testing.docsite import context_map_page as _context_map
from jobctrl.testing.docsite import error_codes as _errors

# Generated page (path under docs/) -> the function that writes it.
PAGES: dict[str, Callable[[], str]] = {
    "reference/context-map.md": _context_map.context_map_page,
    "operators/cli.md": _cli.cli_reference,
    "operators/configuration.md": _config.config_reference,
    "operators/error-codes.md": _errors.error_codes_page,
    "adr/index.md": _adrs.adr_index_page,
}

__all__ = ["PAGES"]
