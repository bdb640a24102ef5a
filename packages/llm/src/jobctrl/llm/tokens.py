"""Deterministic token estimates for providers that do not report usage (the offline provider)."""

from __future__ import annotations

import math

# Roughly four characters per token for English text: coarse, but stable across runs and platforms,
# which is what the spend ledger and its tests need from an offline estimate.
CHARS_PER_TOKEN = 4


def estimate_tokens(*texts: str) -> int:
    return sum(math.ceil(len(text) / CHARS_PER_TOKEN) for text in texts)
