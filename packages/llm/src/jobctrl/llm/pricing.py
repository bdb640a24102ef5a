"""Per-model-family prices, per million tokens (input, output).  An estimate, not billing truth."""

from __future__ import annotations

# Checked in order: the first family whose marker the model name contains wins.
FAMILY_RATES: tuple[tuple[str, float, float], ...] = (
    ("local", 0.0, 0.0),
    ("gpt-4o", 2.50, 10.00),
    ("gemini", 0.30, 2.50),
    ("claude", 3.00, 15.00),
)
GENERIC_RATE: tuple[float, float] = (1.00, 4.00)


def estimate_cost_usd(model: str, input_tokens: int, output_tokens: int) -> float:
    if input_tokens < 0 or output_tokens < 0:
        raise ValueError("token counts cannot be negative")
    name = model.lower()
    rate_in, rate_out = next(((i, o) for marker, i, o in FAMILY_RATES if marker in name), GENERIC_RATE)
    return (input_tokens * rate_in + output_tokens * rate_out) / 1_000_000
