"""Profile validation, the offline writer and the HTML templates."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from jobctrl.llm.port import LlmPort, StructuredRequest
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.adapters.rendering.html import PageSize, resume_html
from jobctrl.materials.domain.assembly import assemble_resume
from jobctrl.materials.domain.errors import InvalidPostingError, InvalidProfileError
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.domain.sample import SAMPLE_PROFILE, sample_posting, sample_profile
from jobctrl.materials.ports import TAILOR_TASK, CoverLetterDraft, ResumeDraft
from jobctrl.materials.use_cases._common import llm_context

pytestmark = pytest.mark.domain


def _profile_with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(SAMPLE_PROFILE)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data",
    [
        _profile_with(version=0),
        _profile_with(name=" "),
        _profile_with(unexpected="field"),
        _profile_with(summary=[{"id": "b-globex-1", "text": "Duplicate id of a bullet."}]),
        _profile_with(summary=[{"id": "../escape", "text": "Unsafe id."}]),
        _profile_with(summary=[{"id": "s", "text": "  "}]),
        _profile_with(
            experiences=[{"id": "e", "employer": "X", "title": "Y", "start": "March 2019", "bullets": []}]
        ),
    ],
)
def test_malformed_profiles_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(InvalidProfileError):
        CandidateProfile.from_builtins(data)


def test_a_posting_needs_a_safe_job_id() -> None:
    with pytest.raises(InvalidPostingError):
        TargetPosting(job_id="../x", role_title="Engineer", company="Acme").validate()
    with pytest.raises(InvalidPostingError):
        TargetPosting.from_builtins({"jobId": "job-1", "roleTitle": "Engineer"})
    posting = TargetPosting.from_builtins({"jobId": "job-1", "roleTitle": "Engineer", "company": "Acme"})
    assert posting.company == "Acme" and posting.keywords == []


def _request(task: str, model: type[Any]) -> StructuredRequest[Any]:
    profile, posting = sample_profile(), sample_posting()
    return StructuredRequest(
        task=task, response_model=model, system="", prompt="", context=llm_context(profile, posting)
    )


def test_the_offline_writer_is_deterministic_and_grounded() -> None:
    writer: LlmPort = OfflineMaterialsWriter()
    first = writer.structured(_request(TAILOR_TASK, ResumeDraft))
    second = writer.structured(_request(TAILOR_TASK, ResumeDraft))
    assert first.value == second.value and first.usage.model.startswith("local")
    # Posting keywords (Kafka, PostgreSQL) pull the matching bullets to the top.
    globex = next(u for u in first.value.experience_updates if u.experience_id == "exp-globex")
    assert globex.bullets[0].sources == ["b-globex-2"]
    resume, issues = assemble_resume(sample_profile(), sample_posting(), first.value)
    assert issues == [] and resume is not None


def test_the_offline_writer_refuses_tasks_it_does_not_know() -> None:
    with pytest.raises(Exception, match="cannot answer") as info:
        OfflineMaterialsWriter().structured(_request("score_fit", CoverLetterDraft))
    assert getattr(info.value, "code", None) == "configuration"


def test_resume_html_marks_every_line_and_escapes_text() -> None:
    data = _profile_with(name="Ada <script>alert(1)</script>")
    profile = CandidateProfile.from_builtins(data)
    draft = OfflineMaterialsWriter().structured(_request(TAILOR_TASK, ResumeDraft)).value
    resume, _ = assemble_resume(profile, sample_posting(), draft)
    assert resume is not None
    html = resume_html(resume)
    assert "<script>" not in html and "&lt;script&gt;" in html
    for line in resume.provenance():
        assert f'data-resume-layout-target="{line.line_id}"' in html
    assert "size: letter;" in html and "size: a4;" in resume_html(resume, page_size=PageSize.A4)
