"""LLM settings: which provider, which model, where, with which key.

``provider="offline"`` (the default) needs nothing else.  ``provider="openai_compatible"`` talks to any
OpenAI-compatible endpoint (OpenAI, a local vLLM/Ollama/llama.cpp server, a gateway) through instructor.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from jobctrl.llm.pricing import ModelPrice, estimate_cost_usd


class LlmSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Literal["offline", "openai_compatible"] = "offline"
    model: str = "local-offline"
    base_url: str | None = None
    api_key: SecretStr | None = None
    # tools = function calling (most providers); json = JSON mode for servers without tool support.
    mode: Literal["tools", "json"] = "tools"
    timeout_seconds: float = Field(default=60.0, gt=0, le=900)
    # Transport retries stay with Temporal's retry policy; instructor re-asks are off by default so
    # one activity attempt is one paid call.
    max_retries: int = Field(default=0, ge=0, le=3)
    # Prices per exact model name (USD per million tokens); see ``jobctrl.llm.pricing``.
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    # An unpriced model on a loopback endpoint costs nothing (set by the runtime from base_url).
    free_when_unpriced: bool = False

    def cost_usd(self, model: str, input_tokens: int, output_tokens: int) -> float:
        return estimate_cost_usd(
            model, input_tokens, output_tokens, self.prices, free_when_unpriced=self.free_when_unpriced
        )
