"""LLM settings: which provider, which model, where, with which key.

``provider="offline"`` (the default) needs nothing else.  ``provider="openai_compatible"`` talks to any
OpenAI-compatible endpoint (OpenAI, a local vLLM/Ollama/llama.cpp server, a gateway) through instructor.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr


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
