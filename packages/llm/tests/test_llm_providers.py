"""The two providers: offline routing and usage, instructor over real HTTP against a local server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel, Field, SecretStr

from jobctrl.kernel.errors import AuthenticationError, ConfigurationError, LlmTransientError
from jobctrl.llm import (
    InstructorProvider,
    LlmOutputInvalidError,
    LlmSettings,
    LlmUsage,
    NullSpendRecorder,
    OfflineProvider,
    StructuredRequest,
    build_provider,
)
from jobctrl.testing.llm_server import (
    Canned,
    FakeOpenAI,
    fake_openai_server,
    json_completion,
    tool_call_completion,
)


class Verdict(BaseModel):
    label: str = Field(min_length=1)
    score: int = Field(ge=1, le=10)


def _request(prompt: str = "Rate this posting") -> StructuredRequest[Verdict]:
    return StructuredRequest(task="rate", response_model=Verdict, system="You rate.", prompt=prompt)


# -- offline -------------------------------------------------------------------------------------
def test_offline_routes_to_the_registered_handler_and_reports_estimated_usage() -> None:
    spend = NullSpendRecorder()
    llm = OfflineProvider(spend)
    llm.register("rate", Verdict, lambda req: Verdict(label=req.prompt.split()[0].lower(), score=7))

    result = llm.structured(_request("Rate this posting"))

    assert result.value == Verdict(label="rate", score=7)
    # "You rate." = 9 chars -> 3 tokens; "Rate this posting" = 17 -> 5 tokens.
    assert result.usage.input_tokens == 8
    assert result.usage.output_tokens > 0
    assert spend.calls == [result.usage]
    assert result.usage.model == "local-offline"
    # Deterministic: the same request gives the same value and the same usage.
    assert llm.structured(_request("Rate this posting")) == result


def test_offline_without_a_handler_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError) as info:
        OfflineProvider().structured(_request())
    assert info.value.code == "configuration" and not info.value.retryable


def test_offline_handler_output_is_validated_like_provider_output() -> None:
    spend = NullSpendRecorder()
    llm = OfflineProvider(spend)
    llm.register("rate", Verdict, lambda req: Verdict.model_construct(label="", score=42))
    with pytest.raises(LlmOutputInvalidError):
        llm.structured(_request())
    assert len(spend.calls) == 1 and spend.calls[0].output_tokens == 0


def test_build_provider_defaults_to_offline() -> None:
    assert isinstance(build_provider(LlmSettings()), OfflineProvider)


# -- instructor over real HTTP -------------------------------------------------------------------
@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with fake_openai_server() as state:
        yield state


def _provider(server: FakeOpenAI, spend: NullSpendRecorder, **overrides: object) -> InstructorProvider:
    settings = LlmSettings.model_validate(
        {
            "provider": "openai_compatible",
            "model": "gpt-4o-mini",
            "base_url": server.base_url,
            "api_key": SecretStr("sk-test"),
            "timeout_seconds": 5,
            **overrides,
        }
    )
    provider = build_provider(settings, spend)
    assert isinstance(provider, InstructorProvider)
    return provider


def test_instructor_parses_a_tool_call_and_reports_provider_usage(server: FakeOpenAI) -> None:
    spend = NullSpendRecorder()
    server.responses.append(Canned(body=tool_call_completion("Verdict", {"label": "strong", "score": 8})))

    result = _provider(server, spend).structured(_request())

    assert result.value == Verdict(label="strong", score=8)
    # Priced by the provider at the gpt-4o family rate (2.50 in, 10.00 out per million).
    assert spend.calls == [LlmUsage("gpt-4o-mini", 120, 30, (120 * 2.5 + 30 * 10) / 1e6)]
    sent = server.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["auth"] == "Bearer sk-test"
    assert sent["body"]["model"] == "gpt-4o-mini"
    assert sent["body"]["tools"][0]["function"]["name"] == "Verdict"


def test_instructor_json_mode_parses_message_content(server: FakeOpenAI) -> None:
    spend = NullSpendRecorder()
    server.responses.append(Canned(body=json_completion('{"label": "ok", "score": 3}')))
    result = _provider(server, spend, mode="json").structured(_request())
    assert result.value == Verdict(label="ok", score=3)
    assert spend.calls == [LlmUsage("gpt-4o-mini", 90, 20, (90 * 2.5 + 20 * 10) / 1e6)]


def test_instructor_malformed_output_is_untrusted_and_typed(server: FakeOpenAI) -> None:
    spend = NullSpendRecorder()
    # Valid JSON transport, but the arguments violate the model (score out of range, label missing).
    server.responses.append(Canned(body=tool_call_completion("Verdict", {"score": 99})))
    with pytest.raises(LlmOutputInvalidError) as info:
        _provider(server, spend).structured(_request())
    assert info.value.retryable
    assert len(spend.calls) == 1 and spend.calls[0].input_tokens > 0


def test_instructor_garbage_arguments_are_typed(server: FakeOpenAI) -> None:
    spend = NullSpendRecorder()
    body = tool_call_completion("Verdict", {})
    body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{not json"
    server.responses.append(Canned(body=body))
    with pytest.raises(LlmOutputInvalidError):
        _provider(server, spend).structured(_request())
    assert len(spend.calls) == 1


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (500, LlmTransientError),
        (503, LlmTransientError),
        (429, LlmTransientError),
        (401, AuthenticationError),
        (403, AuthenticationError),
        (404, ConfigurationError),
    ],
)
def test_instructor_maps_http_errors_to_typed_errors(
    server: FakeOpenAI, status: int, error: type[Exception]
) -> None:
    spend = NullSpendRecorder()
    server.responses.append(Canned(status=status, body={"error": {"message": "nope", "type": "x"}}))
    with pytest.raises(error):
        _provider(server, spend).structured(_request())
    assert len(server.requests) == 1  # no hidden client retries: Temporal owns retrying
    assert len(spend.calls) == 1


def test_instructor_timeout_is_transient(server: FakeOpenAI) -> None:
    server.responses.append(
        Canned(body=tool_call_completion("Verdict", {"label": "x", "score": 1}), delay_seconds=1.5)
    )
    with pytest.raises(LlmTransientError):
        _provider(server, NullSpendRecorder(), timeout_seconds=0.3).structured(_request())


def test_unreachable_provider_is_transient() -> None:
    settings = LlmSettings(
        provider="openai_compatible", model="m", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("k")
    )
    with pytest.raises(LlmTransientError):
        InstructorProvider(settings).structured(_request())


@pytest.mark.parametrize(
    "overrides",
    [{"base_url": None}, {"base_url": "ftp://x"}, {"api_key": None}, {"model": "  "}],
)
def test_bad_configuration_is_refused_before_any_call(overrides: dict[str, object]) -> None:
    values: dict[str, object] = {
        "provider": "openai_compatible",
        "model": "m",
        "base_url": "http://127.0.0.1:1/v1",
        "api_key": "k",
    }
    values.update(overrides)
    with pytest.raises(ConfigurationError):
        InstructorProvider(LlmSettings.model_validate(values))
