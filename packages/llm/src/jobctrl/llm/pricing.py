"""Prices per million tokens (input, output): an estimate, not billing truth.

A configured price for the exact model name wins (``[llm.prices."<model>"]`` in ``config.toml``, set
``input = 0`` and ``output = 0`` for a local endpoint you pay nothing for).  Otherwise the first
built-in family whose marker the model name contains; otherwise, when the endpoint is on this machine
(``free_when_unpriced``), zero; otherwise the generic rate, so an unknown hosted model is never free.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

# Checked in order: the first family whose marker the model name contains wins.
FAMILY_RATES: tuple[tuple[str, float, float], ...] = (
    ("local", 0.0, 0.0),
    ("gpt-4o", 2.50, 10.00),
    ("gemini", 0.30, 2.50),
    ("claude", 3.00, 15.00),
)
GENERIC_RATE: tuple[float, float] = (1.00, 4.00)


class ModelPrice(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(ge=0, le=1000, allow_inf_nan=False)
    output: float = Field(ge=0, le=1000, allow_inf_nan=False)


def rate_for(
    model: str, prices: Mapping[str, ModelPrice] | None = None, *, free_when_unpriced: bool = False
) -> tuple[float, float]:
    if prices and model in prices:
        price = prices[model]
        return price.input, price.output
    name = model.lower()
    family = next(((i, o) for marker, i, o in FAMILY_RATES if marker in name), None)
    if family is not None:
        return family
    return (0.0, 0.0) if free_when_unpriced else GENERIC_RATE


def estimate_cost_usd(
    model: str,
    input_tokens: int,
    output_tokens: int,
    prices: Mapping[str, ModelPrice] | None = None,
    *,
    free_when_unpriced: bool = False,
) -> float:
    if input_tokens < 0 or output_tokens < 0:
        raise ValueError("token counts cannot be negative")
    rate_in, rate_out = rate_for(model, prices, free_when_unpriced=free_when_unpriced)
    return (input_tokens * rate_in + output_tokens * rate_out) / 1_000_000
