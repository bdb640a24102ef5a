"""``jobctrl profile import`` (JSON Resume v1.0.0 or JobCtrl's own JSON), ``jobctrl profile show``, and
the one validation ``PATCH /v1/profile`` shares: an unknown or malformed field is refused with its
path (exit 2 / 422) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import load_profile
from jobctrl.orchestration.domain.profile.json_resume import to_document as json_resume_document
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.profiles import materials_profile, scoring_profile
from jobctrl.scoring.adapters.offline_rules import extract_requirements, match_evidence
from jobctrl.scoring.domain.ledger import Fit

RESUME = Path(__file__).parent / "data" / "resume.json"
runner = CliRunner()


def saved(home: Path) -> tuple[int, dict[str, Any]]:
    db = open_database(f"sqlite:///{home / 'jobctrl.db'}")
    try:
        store = EventStore(db, registry())
        store.create_schema()
        profile = load_profile(store)
        return profile.profile_version, dict(profile.content)
    finally:
        db.dispose()


def test_a_json_resume_is_imported_with_stable_ids_as_one_version(home: Path) -> None:
    first = runner.invoke(app, ["profile", "import", str(RESUME)])
    assert first.exit_code == 0, first.output
    assert "JSON Resume: profile version 1 (updated), 2 experiences" in first.stdout
    version, content = saved(home)
    assert version == 1
    assert content["contact"] == {
        "name": "Grace Hopper", "headline": "Senior Backend Engineer", "email": "grace@example.org",
        "phone": "+44 20 7946 0018", "location": "London, GB",
        "links": [{"label": "Website", "url": "https://grace.example.org"},
                  {"label": "GitHub", "url": "https://github.com/ghopper"}],
    }  # fmt: skip
    assert content["workAuthorization"] == {"countries": ["GB"], "requiresSponsorship": True}
    [globex, initech] = content["experience"]
    assert (globex["id"], globex["start"], initech["end"]) == ("exp-globex-2019-03", "2019-03", "2019-02")
    assert globex["technologies"] == ["Python", "Kafka"]  # the skill keywords its highlights name
    assert [b["id"] for b in globex["bullets"]] == ["exp-globex-2019-03-b1", "exp-globex-2019-03-b2"]
    # The same file again is the same document: no new version.
    again = runner.invoke(app, ["profile", "import", str(RESUME)])
    assert again.exit_code == 0 and "version 1 (no_change)" in again.stdout
    # Every context can read it.
    m = materials_profile(version, content)
    assert m.phone == "+44 20 7946 0018" and m.links[1].url == "https://github.com/ghopper"
    shown = runner.invoke(app, ["profile", "show", "--format", "json"])
    assert json.loads(shown.stdout) == {"profileVersion": 1, "content": content}
    text = runner.invoke(app, ["profile", "show"]).stdout
    assert "Grace Hopper" in text and "GB (needs sponsorship)" in text


def test_dry_run_validates_and_writes_nothing(home: Path) -> None:
    result = runner.invoke(app, ["profile", "import", str(RESUME), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "valid JSON Resume: 2 experiences; nothing saved" in result.stdout
    assert not (home / "jobctrl.db").exists()


def test_the_projects_own_flat_json_is_imported_too(home: Path, tmp_path: Path) -> None:
    flat = tmp_path / "profile.json"
    flat.write_text(json.dumps(SAMPLE_PROFILE))
    result = runner.invoke(app, ["profile", "import", str(flat)])
    assert result.exit_code == 0, result.output
    assert saved(home)[1]["experience"][0]["id"] == "exp-globex"


def _resume_with(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RESUME.read_text())
    for path, value in changes.items():
        node: Any = data  # a JSON tree: a part is a list index or an object key
        *parents, last = path.split("__")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[last] = value
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_resume_with(work__0__colour="red"), ["work.0.colour: Extra inputs are not permitted"]),
        (_resume_with(work__1__startDate="Jan 2014"), ["work.1.startDate: must be an ISO 8601 date"]),
        (_resume_with(skills__0__keywords="Python"), ["skills.0.keywords: Input should be a valid list"]),
        (_resume_with(basics__workAuthorization={"countries": ["uk"]}),
         ["workAuthorization.countries.0: must be an ISO 3166-1"]),
        (_resume_with(basics__email="grace at example"), ["contact.email: must be an email address"]),
        ({"experience": [{"id": "e1", "employer": "X", "title": "Y", "start": "2020", "mood": "ok"}],
          "contact": {"name": "A", "headline": "B", "phone": "call me"}},
         ["experience.0.mood: Extra inputs are not permitted", "contact.phone: must be a phone number"]),
        ({"hobbies": ["chess"]}, ["hobbies: not a profile section"]),
    ],
    ids=["unknown-field", "bad-date", "wrong-type", "bad-country", "bad-email", "own-json", "no-section"],
)  # fmt: skip
def test_invalid_profiles_exit_2_listing_each_field_and_write_nothing(
    home: Path, tmp_path: Path, data: dict[str, Any], expected: list[str]
) -> None:
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    result = runner.invoke(app, ["profile", "import", str(file)])
    assert result.exit_code == 2, result.output
    assert "nothing was saved" in result.stderr
    for line in expected:
        assert line in result.stderr
    assert not (home / "jobctrl.db").exists()


def test_a_file_that_is_not_json_exits_2(home: Path, tmp_path: Path) -> None:
    file = tmp_path / "resume.json"
    file.write_text("{ not json")
    result = runner.invoke(app, ["profile", "import", str(file)])
    assert result.exit_code == 2 and "not JSON" in result.stderr


POSTING = """Senior Backend Engineer

Requirements:
- 5+ years of Python
- Must be authorized to work in the United Kingdom
- We are unable to offer visa sponsorship for this role
- Experience with Kafka
"""


def _fits(content: dict[str, Any]) -> dict[str, Fit]:
    profile = scoring_profile(1, content)
    extraction = extract_requirements(POSTING)
    matching = match_evidence(extraction, profile)
    return {extraction.requirements[m.requirement_index].text: m.fit for m in matching.matches}


def test_scoring_counts_years_per_technology_and_reads_work_authorization() -> None:
    content = json_resume_document(json.loads(RESUME.read_text()))
    fits = _fits(content)
    # Python is named by both roles (2014-01..2019-02 and 2019-03..now): well over 5 years.
    assert fits["5+ years of Python"] is Fit.DIRECT
    assert fits["Must be authorized to work in the United Kingdom"] is Fit.DIRECT
    # She needs sponsorship and the posting offers none: the one true blocker.
    assert fits["We are unable to offer visa sponsorship for this role"] is Fit.BLOCKED
    content["workAuthorization"] = {"countries": ["GB"], "requiresSponsorship": False}
    assert _fits(content)["We are unable to offer visa sponsorship for this role"] is Fit.DIRECT
    content["workAuthorization"] = {"countries": ["DE"]}
    assert _fits(content)["Must be authorized to work in the United Kingdom"] is Fit.BLOCKED
    del content["workAuthorization"]  # unknown is not a blocker
    assert _fits(content)["Must be authorized to work in the United Kingdom"] is Fit.NOT_ASSESSED
