"""The LLM port shared by every context that asks a model for structured output.

A context asks for an instance of a pydantic model (``StructuredRequest.response_model``) and gets a
``StructuredResult`` with the parsed value and the token usage.  Every call is reported to a
``SpendRecorder`` (Orchestration's ``llm_spend`` ledger implements it) priced by ``estimate_cost_usd``.

Providers:

* ``OfflineProvider`` — the embedded default.  Deterministic and network-free: each context registers
  a rule-based handler per response model (e.g. Scoring's requirement extraction).
* ``InstructorProvider`` — any OpenAI-compatible endpoint through ``instructor``.

Provider output is untrusted data: callers validate it like any other input.
"""

from jobctrl.llm.port import (
    LlmPort,
    LlmUsage,
    NullSpendRecorder,
    SpendRecorder,
    StructuredRequest,
    StructuredResult,
)
from jobctrl.llm.pricing import estimate_cost_usd

__all__ = [
    "LlmPort",
    "LlmUsage",
    "NullSpendRecorder",
    "SpendRecorder",
    "StructuredRequest",
    "StructuredResult",
    "estimate_cost_usd",
]
