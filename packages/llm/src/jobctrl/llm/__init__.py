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

from jobctrl.llm.errors import LlmOutputInvalidError
from jobctrl.llm.factory import build_provider
from jobctrl.llm.instructor_provider import InstructorProvider
from jobctrl.llm.offline import OFFLINE_MODEL, OfflineProvider
from jobctrl.llm.port import (
    LlmPort,
    LlmUsage,
    NullSpendRecorder,
    SpendRecorder,
    StructuredRequest,
    StructuredResult,
)
from jobctrl.llm.pricing import estimate_cost_usd
from jobctrl.llm.settings import LlmSettings

__all__ = [
    "OFFLINE_MODEL",
    "InstructorProvider",
    "LlmOutputInvalidError",
    "LlmPort",
    "LlmSettings",
    "LlmUsage",
    "NullSpendRecorder",
    "OfflineProvider",
    "SpendRecorder",
    "StructuredRequest",
    "StructuredResult",
    "build_provider",
    "estimate_cost_usd",
]
