"""MkDocs hook: write the generated reference pages at build time.

Each page comes from a generator in ``jobctrl.testing.docsite`` that reads the code (the registry,
each context's ``events``, the import contracts, the projections, the CLI, the settings model, the
error taxonomy), so the pages cannot fall behind it.  A generator that raises fails the build.
"""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

from jobctrl.testing.docsite import PAGES


def on_files(files: Files, config: Any) -> Files:
    for src_uri, generate in PAGES.items():
        files.append(File.generated(config, src_uri, content=generate()))
    return files
