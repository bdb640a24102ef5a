"""The real model path: with ``provider = "openai-compatible"`` the worker's Score, Tailor and Cover go
through instructor to the configured endpoint (here a local OpenAI-compatible server on port 0 that
answers each structured request by the tool it asks for).

What the requests carry is asserted (the enriched posting text, the candidate's facts, the policy
criteria, the configured model and key), and what was recorded (the score, the materials, the
fabrication gate's refusal of an invented claim, the spend at the configured model's price).
A server that answers garbage, times out or refuses gives typed failures, never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.errors import ConfigurationError, LlmTransientError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import InstructorProvider, LlmOutputInvalidError, NullSpendRecorder
from jobctrl.llm.pricing import ModelPrice
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.materials.events import ResumeApproved, ResumeFailed
from jobctrl.runtime.composition.profiles import scoring_profile, to_document
from jobctrl.runtime.config import LlmConfig
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job
from jobctrl.scoring.use_cases.update_scoring_policy import UpdateScoringPolicy, update_scoring_policy
from jobctrl.testing.llm_server import Canned, fake_openai_server, json_completion, tool_call_completion
from jobctrl.testing.runtime.pipeline import composed_worker, one_posting_world

MODEL = "acme-llm-7b"
PRICE = ModelPrice(input=1.0, output=2.0)  # USD per million tokens
PROMPT_TOKENS, OUTPUT_TOKENS = 120, 30
CRITERIA = "I want backend platform work; weigh Kafka highly."
INVENTED = "Led a team of 50 engineers at Google."


def _tool(body: dict[str, Any]) -> str:
    name: str = body["tools"][0]["function"]["name"]
    return name


def _user(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")


class Model:
    """Answers like a well-behaved model, except that its first resume invents a claim."""

    def __init__(self) -> None:
        self.resumes = 0

    def __call__(self, body: dict[str, Any]) -> Canned:
        tool = _tool(body)
        if tool == "RequirementExtraction":
            args: dict[str, Any] = {
                "requirements": [
                    {"text": "Experience with Python", "tier": "must_have", "kind": "skill", "weight": 3,
                     "keywords": ["Python"]},
                    {"text": "Kafka", "tier": "nice_to_have", "kind": "skill", "weight": 1,
                     "keywords": ["Kafka"]},
                ]
            }  # fmt: skip
        elif tool == "EvidenceMatching":
            evidence = json.loads(_user(body))["profile"]["evidence"]

            def cite(text: str) -> str:
                found = next(e["id"] for e in evidence if e["text"] == text)
                assert isinstance(found, str), found  # the request carries evidence ids as strings
                return found

            args = {
                "matches": [
                    {"requirement_index": 0, "fit": "direct", "evidence_ids": [cite("Python")]},
                    {"requirement_index": 1, "fit": "direct", "evidence_ids": [cite("Kafka")]},
                ]
            }
        elif tool == "ResumeDraft":
            self.resumes += 1
            text = INVENTED if self.resumes == 1 else SAMPLE_PROFILE_SUMMARY
            args = {"summary": [{"text": text, "sources": ["sum-1"]}]}
        elif tool == "CoverLetterDraft":
            args = {
                "salutation": "Dear Hiring Team,",
                "paragraphs": [
                    {"text": "Cut p99 checkout latency by 40% across 12 services.", "sources": ["b-globex-1"]}
                ],
            }
        else:
            return Canned(400, {"error": {"message": f"unexpected tool {tool}"}})
        return Canned(200, tool_call_completion(tool, args, prompt=PROMPT_TOKENS, output=OUTPUT_TOKENS))


SAMPLE_PROFILE_SUMMARY = "Backend engineer with 8 years of experience building payment systems."


@pytest.mark.asyncio
async def test_one_job_is_prepared_through_the_configured_endpoint(
    temporal_address: str, database: Database, tmp_path: Path
) -> None:
    with one_posting_world(
        database, tmp_path, model=MODEL, api_key="sk-local-test", prices={MODEL: PRICE}
    ) as world:
        store, server, posting, comp = world.store, world.server, world.posting, world.comp
        update_scoring_policy(UpdateScoringPolicy(criteria=CRITERIA), store=store, clock=SystemClock())
        server.responder = Model()
        async with composed_worker(comp, temporal_address) as worker:
            report = await worker.pipeline(world.sources, top_n=0)
        requests = [r for r in server.requests if r["path"].endswith("/chat/completions")]

    assert report.discover.observed_jobs == 1 and len(report.prepared) == 1, report.failed
    [job_id] = report.prepared
    assert comp.facts.pdf_ready(job_id)
    tools = [_tool(r["body"]) for r in requests]
    assert tools.count("RequirementExtraction") == 1 and tools.count("EvidenceMatching") == 1
    assert tools.count("ResumeDraft") == 2 and tools.count("CoverLetterDraft") == 1
    assert all(r["body"]["model"] == MODEL and r["auth"] == "Bearer sk-local-test" for r in requests)

    by_tool = {_tool(r["body"]): _user(r["body"]) for r in requests}
    duty = posting.description.split(".")[0][:60]  # a sentence of the posting, as the enriched page has it
    assert duty and duty in by_tool["RequirementExtraction"]
    assert "<p>" not in by_tool["RequirementExtraction"] and "&lt;" not in by_tool["RequirementExtraction"]
    assert CRITERIA in by_tool["RequirementExtraction"] and CRITERIA in by_tool["EvidenceMatching"]
    for tool in ("ResumeDraft", "CoverLetterDraft"):
        prompt = by_tool[tool]
        assert "POSTING TEXT:" in prompt and duty in prompt  # the posting's own text
        assert "b-globex-1" in prompt and "Cut p99 checkout latency" in prompt  # the candidate's facts
        assert posting.employer in prompt and posting.title in prompt

    # The fabrication gate judged the invented claim (recorded as a failure) and approved the retry.
    kinds = [s.event_type for s in store.read_stream(f"materials-{job_id}")]
    assert kinds.index(ResumeFailed.event_type) < kinds.index(ResumeApproved.event_type)
    failed = next(
        store.registry.decode(s) for s in store.read_stream(f"materials-{job_id}")
        if s.event_type == ResumeFailed.event_type
    )  # fmt: skip
    assert isinstance(failed, ResumeFailed) and failed.validation_errors

    spend = comp.ledger.status()
    assert spend.calls == len(requests)
    expected = len(requests) * (PROMPT_TOKENS * PRICE.input + OUTPUT_TOKENS * PRICE.output) / 1_000_000
    assert spend.spent_usd == pytest.approx(expected)


def _score(server_url: str, store: EventStore, *, timeout: float = 30.0) -> None:
    llm = LlmConfig(
        provider="openai-compatible", base_url=server_url, model=MODEL, timeout_seconds=timeout,
        api_key=SecretStr("k"),
    )  # fmt: skip
    provider = InstructorProvider(llm.settings(), NullSpendRecorder())
    profile = scoring_profile(3, to_document(SAMPLE_PROFILE))
    try:
        score_job(
            ScoreJob("job-1", "We need Python and Kafka.", profile),
            store=store, llm=provider, clock=SystemClock(),
        )  # fmt: skip
    finally:
        provider.close()


@pytest.mark.parametrize(
    ("canned", "error", "retryable"),
    [
        (Canned(200, b"{not json"), LlmOutputInvalidError, True),
        (Canned(200, json_completion("I cannot answer that in JSON.")), LlmOutputInvalidError, True),
        (
            Canned(200, tool_call_completion("RequirementExtraction", {"requirements": "many"})),
            LlmOutputInvalidError,
            True,
        ),
        (Canned(503, {"error": {"message": "overloaded"}}), LlmTransientError, True),
        (Canned(400, {"error": {"message": "unknown model"}}), ConfigurationError, False),
    ],
    ids=["not-json", "prose", "wrong-shape", "overloaded", "bad-request"],
)
def test_garbage_and_refusals_are_typed_failures(
    database: Database, canned: Canned, error: type[Exception], retryable: bool
) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    with fake_openai_server() as server:
        server.responses.append(canned)
        with pytest.raises(error) as caught:
            _score(server.base_url, store)
    assert to_application_error(caught.value).non_retryable is not retryable
    assert not list(store.read_stream("score-job-1"))  # nothing recorded


def test_a_timeout_is_a_retryable_transient_failure(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    with fake_openai_server() as server:
        server.responses.append(
            Canned(200, tool_call_completion("RequirementExtraction", {}), delay_seconds=2)
        )
        with pytest.raises(LlmTransientError) as caught:
            _score(server.base_url, store, timeout=0.3)  # a test about timeouts
    assert not to_application_error(caught.value).non_retryable
    assert not list(store.read_stream("score-job-1"))
