"""The offline provider: deterministic, network-free, the embedded default.

Contexts register one rule-based handler per ``(task, response_model)``; the provider routes each
request to its handler, validates what the handler returned like any provider output, estimates token
counts from the text sizes and reports the usage to the spend recorder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.llm.errors import LlmOutputInvalidError
from jobctrl.llm.port import LlmUsage, NullSpendRecorder, SpendRecorder, StructuredRequest, StructuredResult
from jobctrl.llm.tokens import estimate_tokens

T = TypeVar("T", bound=BaseModel)

OFFLINE_MODEL = "local-offline"

OfflineHandler = Callable[[StructuredRequest[T]], T]


class OfflineProvider:
    def __init__(self, spend: SpendRecorder | None = None, *, model: str = OFFLINE_MODEL) -> None:
        self._model = model
        self._spend: SpendRecorder = spend if spend is not None else NullSpendRecorder()
        self._handlers: dict[tuple[str, type[BaseModel]], Callable[[StructuredRequest[Any]], BaseModel]] = {}

    @property
    def model(self) -> str:
        return self._model

    def register(self, task: str, response_model: type[T], handler: OfflineHandler[T]) -> None:
        """Route ``task`` asking for ``response_model`` to ``handler`` (a later registration replaces)."""
        self._handlers[(task, response_model)] = handler

    def handles(self, task: str, response_model: type[BaseModel]) -> bool:
        return (task, response_model) in self._handlers

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        handler = self._handlers.get((request.task, request.response_model))
        if handler is None:
            raise ConfigurationError(
                f"no offline handler for task {request.task!r} -> {request.response_model.__name__}"
            )
        input_tokens = estimate_tokens(request.system, request.prompt)
        try:
            produced = handler(request)
            # Re-validate through the model: a handler is held to the same contract as a provider.
            value = request.response_model.model_validate(produced.model_dump(mode="json"))
        except ValidationError as exc:
            self._spend.record(LlmUsage(self._model, input_tokens, 0, tenant_id=request.tenant_id))
            raise LlmOutputInvalidError(
                f"offline handler output invalid: {exc.error_count()} errors"
            ) from exc
        usage = LlmUsage(
            self._model, input_tokens, estimate_tokens(value.model_dump_json()), tenant_id=request.tenant_id
        )
        self._spend.record(usage)
        return StructuredResult(value=value, usage=usage)
