"""Test support for the Temporal runtime: fake context activities under the real activity names and
a harness that runs a real worker against a dev server (imported by tests only)."""
