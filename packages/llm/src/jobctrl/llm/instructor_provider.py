"""The instructor provider: structured output from any OpenAI-compatible endpoint.

Failures are mapped onto the shared taxonomy so Temporal retries only what a retry can fix:

* timeouts, connection failures, 408/409/429 and 5xx → ``LlmTransientError`` (retryable);
* 401/403 → ``AuthenticationError``; other 4xx and missing settings → ``ConfigurationError``;
* an answer that does not validate against the response model → ``LlmOutputInvalidError``.

Usage is reported to the spend recorder after every call that reached the provider, failed or not.
"""

from __future__ import annotations

from typing import Any, TypeVar

import instructor
import openai
from instructor.core.exceptions import InstructorError, InstructorRetryException
from pydantic import BaseModel, ValidationError

from jobctrl.kernel.errors import AuthenticationError, ConfigurationError, JobCtrlError, LlmTransientError
from jobctrl.kernel.text import bound_text
from jobctrl.llm.errors import LlmOutputInvalidError
from jobctrl.llm.port import LlmUsage, NullSpendRecorder, SpendRecorder, StructuredRequest, StructuredResult
from jobctrl.llm.settings import LlmSettings
from jobctrl.llm.tokens import estimate_tokens

T = TypeVar("T", bound=BaseModel)

_TRANSIENT_STATUS = frozenset({408, 409, 429})
_MODES = {"tools": instructor.Mode.TOOLS, "json": instructor.Mode.JSON}


class InstructorProvider:
    def __init__(self, settings: LlmSettings, spend: SpendRecorder | None = None) -> None:
        if settings.provider != "openai_compatible":
            raise ConfigurationError(
                f"InstructorProvider needs provider openai_compatible, not {settings.provider}"
            )
        if not settings.base_url or not settings.base_url.startswith(("http://", "https://")):
            raise ConfigurationError("LLM base_url must be an http(s) URL")
        if not settings.model.strip():
            raise ConfigurationError("LLM model must be set")
        if settings.api_key is None or not settings.api_key.get_secret_value():
            raise ConfigurationError(
                "LLM api_key must be set (use any placeholder for keyless local servers)"
            )
        self._settings = settings
        self._spend: SpendRecorder = spend if spend is not None else NullSpendRecorder()
        self._openai = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key.get_secret_value(),
            timeout=settings.timeout_seconds,
            max_retries=0,
        )
        self._client = instructor.from_openai(self._openai, mode=_MODES[settings.mode])

    @property
    def model(self) -> str:
        return self._settings.model

    def close(self) -> None:
        self._openai.close()

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        messages: list[Any] = [
            {"role": "system", "content": request.system},
            {"role": "user", "content": request.prompt},
        ]
        try:
            value, completion = self._client.chat.completions.create_with_completion(
                model=self._settings.model,
                response_model=request.response_model,
                messages=messages,
                max_tokens=request.max_output_tokens,
                max_retries=self._settings.max_retries,
            )
        except JobCtrlError:
            raise
        except InstructorRetryException as exc:
            self._record_failure(request, getattr(exc, "total_usage", None))
            cause = exc.__cause__
            if isinstance(cause, openai.APIError):
                raise _map_api_error(cause) from exc
            raise LlmOutputInvalidError(
                f"{request.response_model.__name__} output did not validate after {exc.n_attempts} attempt(s)"
            ) from exc
        except openai.APIError as exc:
            self._record_failure(request, None)
            raise _map_api_error(exc) from exc
        except (ValidationError, InstructorError, ValueError) as exc:
            self._record_failure(request, None)
            raise LlmOutputInvalidError(
                f"{request.response_model.__name__} output malformed: {bound_text(type(exc).__name__, 80)}"
            ) from exc
        usage = self._priced(_usage_of(self._settings.model, completion, request))
        self._spend.record(usage)
        try:
            # A clean instance of exactly the requested model (instructor attaches the raw response).
            clean = request.response_model.model_validate(value.model_dump(mode="json"))
        except ValidationError as exc:
            raise LlmOutputInvalidError(f"{request.response_model.__name__} output did not validate") from exc
        return StructuredResult(value=clean, usage=usage)

    def _record_failure(self, request: StructuredRequest[Any], total_usage: Any) -> None:
        prompt_tokens = getattr(total_usage, "prompt_tokens", None)
        completion_tokens = getattr(total_usage, "completion_tokens", None)
        if not isinstance(prompt_tokens, int) or prompt_tokens <= 0:
            # The provider did not say: charge the prompt estimate, never zero (spend is never refunded).
            prompt_tokens = estimate_tokens(request.system, request.prompt)
        self._spend.record(
            self._priced(
                LlmUsage(
                    self._settings.model,
                    prompt_tokens,
                    completion_tokens if isinstance(completion_tokens, int) else 0,
                    tenant_id=request.tenant_id,
                )
            )
        )

    def _priced(self, usage: LlmUsage) -> LlmUsage:
        cost = self._settings.cost_usd(usage.model, usage.input_tokens, usage.output_tokens)
        return LlmUsage(usage.model, usage.input_tokens, usage.output_tokens, cost, tenant_id=usage.tenant_id)


def _usage_of(model: str, completion: Any, request: StructuredRequest[Any]) -> LlmUsage:
    usage = getattr(completion, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    output = getattr(usage, "completion_tokens", None)
    if not isinstance(prompt, int) or not isinstance(output, int) or prompt < 0 or output < 0:
        return LlmUsage(
            model, estimate_tokens(request.system, request.prompt), 0, tenant_id=request.tenant_id
        )
    return LlmUsage(model, prompt, output, tenant_id=request.tenant_id)


def _map_api_error(exc: openai.APIError) -> JobCtrlError:
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return LlmTransientError(f"LLM provider unreachable: {type(exc).__name__}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status in (401, 403):
            return AuthenticationError(f"LLM provider refused the credentials (HTTP {status})")
        if status >= 500 or status in _TRANSIENT_STATUS:
            return LlmTransientError(f"LLM provider failed (HTTP {status})")
        return ConfigurationError(f"LLM provider rejected the request (HTTP {status})")
    return LlmOutputInvalidError(f"LLM provider answer unusable: {type(exc).__name__}")
