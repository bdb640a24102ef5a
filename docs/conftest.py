"""The tutorials' code blocks are tests: each page runs top to bottom in a scratch folder (ADR 0171)."""

from pathlib import Path

from jobctrl.testing.docsite.tutorials import tutorial_sybil

pytest_collect_file = tutorial_sybil(Path(__file__).parent).pytest()
