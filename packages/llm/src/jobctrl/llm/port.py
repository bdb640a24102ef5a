"""The port: one structured call, its usage, and where spend is reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class StructuredRequest(Generic[T]):
    """Ask for one ``response_model`` instance.

    ``task`` is a short stable name (``score_fit``, ``tailor_resume``…) used for routing offline handlers
    and for telemetry; ``system`` and ``prompt`` are the instructions and the data; ``context`` carries
    structured inputs an offline handler can use directly instead of re-parsing the prompt.
    """

    task: str
    response_model: type[T]
    system: str
    prompt: str
    context: dict[str, object] = field(default_factory=dict)
    max_output_tokens: int = 4096
    #: whose spend this call is: the ledger keys each call's cost by tenant and day
    tenant_id: str = "local"


@dataclass(frozen=True)
class LlmUsage:
    model: str
    input_tokens: int
    output_tokens: int
    # Priced by the provider from its configured price table; ``None``: the recorder prices it.
    cost_usd: float | None = None
    tenant_id: str = "local"  # the request's tenant, copied by the provider


@dataclass(frozen=True)
class StructuredResult(Generic[T]):
    value: T
    usage: LlmUsage


class SpendRecorder(Protocol):
    def record(self, usage: LlmUsage) -> None:
        """Record the estimated cost of one call (called after every call, success or not)."""


class NullSpendRecorder:
    def __init__(self) -> None:
        self.calls: list[LlmUsage] = []

    def record(self, usage: LlmUsage) -> None:
        self.calls.append(usage)


class LlmPort(Protocol):
    @property
    def model(self) -> str: ...

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        """Return a validated ``request.response_model`` or raise a typed JobCtrl error
        (``LlmTransientError`` for retryable provider trouble, ``ConfigurationError``/``AuthenticationError``
        for setup problems)."""
        ...
