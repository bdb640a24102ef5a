"""Steps of features/search/your_own_search.feature: the commands run as a new user runs them (the
``jobctrl`` command line, a fresh ``JOBCTRL_HOME``, the embedded Temporal dev server it starts), against
a local Greenhouse board and a local OpenAI-compatible endpoint (each on a port of its own)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from typer.testing import CliRunner

from jobctrl.discovery import known_job_ids
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore
from jobctrl.orchestration import load_profile
from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.facts import JobFacts
from jobctrl.scoring.events import JobScored
from jobctrl.testing.llm_server import FakeOpenAI, fake_openai_server

from .conftest import BACKEND, FRONTEND, _postings, _tool, _user, model

scenarios("search/your_own_search.feature")

HERE = Path(__file__).parent
pytestmark = [pytest.mark.integration, pytest.mark.temporal]


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


Job = tuple[str, float | None, list[Path]]  # (job id, fit score, its resume and cover-letter PDFs)


@dataclass
class World:
    """The user's home and working directory, the local stand-ins, and what the commands did."""

    home: Path
    cwd: Path
    results: list[tuple[str, Ran]] = field(default_factory=list)
    board: SampleJobBoard | None = None
    endpoint: FakeOpenAI | None = None
    last: Ran | None = None
    jobs: dict[str, Job] = field(default_factory=dict)  # by title
    exported: list[Path] = field(default_factory=list)
    pngs: list[Path] = field(default_factory=list)

    def the_board(self) -> SampleJobBoard:
        assert self.board is not None
        return self.board

    def the_endpoint(self) -> FakeOpenAI:
        assert self.endpoint is not None
        return self.endpoint

    def the_last(self) -> Ran:
        assert self.last is not None, "no command has run"
        return self.last


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.chdir(tmp_path)  # the user's working directory, holding resume.json
    return World(home=tmp_path / "home", cwd=tmp_path)


@pytest.fixture
def board() -> Iterator[SampleJobBoard]:
    with SampleJobBoard(postings=_postings()) as running:
        yield running


@pytest.fixture
def endpoint() -> Iterator[FakeOpenAI]:
    with fake_openai_server() as server:
        server.responder = model
        yield server


@given("a fresh JobCtrl home")
def fresh_home(world: World) -> None:
    assert not world.home.exists()
    shutil.copy(HERE / "resume.json", world.cwd / "resume.json")


@given("Acme's Greenhouse board serves a backend and a frontend posting on a local port")
def acme_board(world: World, board: SampleJobBoard) -> None:
    world.board = board


@given("an OpenAI-compatible model endpoint on a local port")
def model_endpoint(world: World, endpoint: FakeOpenAI) -> None:
    world.endpoint = endpoint


def _run(world: World, command: str, extra: dict[str, str] | None = None) -> Ran:
    if "{backend}" in command:
        command = command.replace("{backend}", world.jobs[BACKEND][0])
    argv = shlex.split(command.replace("{board}", world.the_board().base_url))
    assert argv[0] == "jobctrl"
    # The jobctrl command line itself, in this process (a subprocess pays the CLI's imports, ~30 s
    # each on the shared machine); the environment is the user's: no JOBCTRL_*/TEMPORAL_* but ours.
    env: dict[str, str | None] = {
        k: None for k in os.environ if k.startswith(("JOBCTRL_", "TEMPORAL_", "OPENAI_"))
    }
    env.update({"JOBCTRL_HOME": str(world.home), **(extra or {})})
    invoked = CliRunner().invoke(app, argv[1:], env=env)
    if invoked.exception is not None and not isinstance(invoked.exception, SystemExit):
        raise invoked.exception
    ran = Ran(invoked.exit_code, invoked.stdout, invoked.stderr)
    world.results.append((command, ran))
    world.last = ran
    return ran


@when(parsers.parse('I run "{command}"'))
def run_command(world: World, command: str) -> None:
    _run(world, command)


WITH_MODEL = (
    'I run "{command}" with JOBCTRL_LLM_PROVIDER=openai-compatible and JOBCTRL_LLM_BASE_URL at the endpoint'
)


@when(parsers.parse(WITH_MODEL))
def run_with_model(world: World, command: str) -> None:
    _run(
        world,
        command,
        {"JOBCTRL_LLM_PROVIDER": "openai-compatible", "JOBCTRL_LLM_BASE_URL": world.the_endpoint().base_url},
    )


@when(parsers.parse('I run "{command}" where the first job has an unknown field "{field}"'))
def run_with_bad_resume(world: World, command: str, field: str) -> None:
    data = json.loads((HERE / "resume.json").read_text())
    data["work"][0][field] = "red"
    (world.cwd / "bad-resume.json").write_text(json.dumps(data))
    _run(world, command)


@given(parsers.parse('the configuration file sets the LLM provider to "{provider}"'))
def bad_config(world: World, provider: str) -> None:
    world.home.mkdir(parents=True)
    (world.home / "config.toml").write_text(f'[llm]\nprovider = "{provider}"\n')


@then("every command exited 0")
def all_ok(world: World) -> None:
    for command, result in world.results:
        assert result.returncode == 0, f"{command}: {result.stdout}\n{result.stderr}"


@then(parsers.parse('it exits 2 naming "{key}"'))
def exits_2(world: World, key: str) -> None:
    result = world.the_last()
    assert result.returncode == 2, result.stdout + result.stderr
    assert re.search(rf"(^|\s){re.escape(key)}:", result.stderr), result.stderr


@then("nothing was written to the home but the configuration file")
def nothing_written(world: World) -> None:
    assert sorted(p.name for p in world.home.iterdir()) == ["config.toml"]


def _store(world: World) -> EventStore:
    return EventStore(open_database(f"sqlite:///{world.home / 'jobctrl.db'}"), registry())


@then("no profile was saved")
def no_profile(world: World) -> None:
    db = world.home / "jobctrl.db"
    if db.exists():
        store = _store(world)
        try:
            store.create_schema()
            assert load_profile(store).profile_version == 0
        finally:
            store.db.dispose()


@then("the model endpoint was sent the text of both postings")
def posting_text_sent(world: World) -> None:
    extracts = [
        _user(r["body"]) for r in world.the_endpoint().requests if _tool(r["body"]) == "RequirementExtraction"
    ]
    for posting in world.the_board().postings:
        sentence = posting.description.split(".")[0][:60]
        assert any(sentence in prompt for prompt in extracts), posting.title


def _facts(world: World, store: EventStore) -> JobFacts:
    tracker = StageTrackerService(store, clock=SystemClock())
    artifacts = ArtifactStore(world.home / "artifacts")
    return JobFacts(store, artifacts=artifacts, tracker=tracker, clock=SystemClock(), min_score=7)


def _jobs(world: World) -> dict[str, tuple[str, float | None, list[Path]]]:
    """title -> (job id, fit score, its resume and cover-letter PDFs when both were rendered)."""
    store = _store(world)
    try:
        facts = _facts(world, store)
        found = {}
        for job_id in known_job_ids(store):
            discovered = facts.discovered(job_id)
            assert discovered is not None
            decoded = (store.registry.decode(s) for s in store.read_stream(f"score-{job_id}"))
            scores = [e for e in decoded if isinstance(e, JobScored)]
            fit = scores[-1].fit_score if scores else None
            ids = facts.pdf_ids(job_id)
            pdfs = [] if ids is None else [
                facts.artifacts.path_of(ids[0], ArtifactKind.RESUME_PDF),
                facts.artifacts.path_of(ids[1], ArtifactKind.COVER_LETTER_PDF),
            ]  # fmt: skip
            found[str(discovered.metadata.get("title"))] = (job_id, fit, pdfs)
        world.jobs = found
        return found
    finally:
        store.db.dispose()


@then("both postings are scored")
def both_scored(world: World) -> None:
    jobs = _jobs(world)
    assert set(jobs) == {BACKEND, FRONTEND}
    assert all(fit is not None for _, fit, _ in jobs.values())


@then("the backend posting has a resume PDF and a cover letter PDF")
def backend_pdfs(world: World) -> None:
    _, fit, pdfs = world.jobs[BACKEND]
    assert fit is not None and fit >= 7
    assert len(pdfs) == 2 and all(p.read_bytes().startswith(b"%PDF") for p in pdfs)
    assert all(world.home / "artifacts" in p.parents for p in pdfs)


@then("the frontend posting, which does not fit, has no PDFs")
def frontend_no_pdfs(world: World) -> None:
    _, fit, pdfs = world.jobs[FRONTEND]
    assert fit is not None and fit < 7 and pdfs == []


@then("the summary of the run names the backend posting and where its PDFs are")
def summary(world: World) -> None:
    out = world.the_last().stdout
    job_id, _, pdfs = world.jobs[BACKEND]
    assert f"{BACKEND} at Acme ({job_id}):" in out
    assert f"resume {pdfs[0]}" in out and f"cover letter {pdfs[1]}" in out
    assert f"materials are under {world.home / 'artifacts'}" in out


def _pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


@then(
    parsers.parse(
        '"{folder}" holds the backend posting\'s resume and cover letter, one "{paper}" page each, the paper'
        ' "jobctrl init" configured'
    )
)
def exported(world: World, folder: str, paper: str) -> None:
    assert world.the_last().returncode == 0, world.the_last().stderr
    job_id = world.jobs[BACKEND][0]
    out = world.cwd / folder
    files = sorted(p.name for p in out.iterdir())
    assert files == [f"{job_id}-cover-letter.pdf", f"{job_id}-resume.pdf"]
    for name in files:
        info = _pdf_info(out / name)
        assert info["Pages"] == "1" and info["Page size"].endswith(f"({paper})"), info
    world.exported = [out / name for name in files]


@then(parsers.parse('the first page of each renders to a portrait image and shows "{name}"'))
def rendered(world: World, name: str) -> None:
    for pdf in world.exported:
        png = pdf.with_suffix("")
        subprocess.run(
            ["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(png)],
            check=True,
        )
        image = png.with_suffix(".png").read_bytes()
        assert image.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
        assert height > width > 0  # a portrait page
        text = subprocess.run(
            ["pdftotext", "-l", "1", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert name in text
    world.pngs = [p.with_suffix(".png") for p in world.exported]


@then(parsers.parse('the cover letter is headed "{name}" with "{contact}" from the profile, then a date'))
def cover_header(world: World, name: str, contact: str) -> None:
    [cover] = [p for p in world.exported if p.name.endswith("-cover-letter.pdf")]
    argv = ["pdftotext", "-layout", "-l", "1", str(cover), "-"]
    text = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=30).stdout
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == name and lines[1].startswith(contact), lines[:5]
    # The date line (from the run's clock) comes before the salutation: "Month D, YYYY".
    dated = next(i for i, line in enumerate(lines) if re.fullmatch(r"[A-Z][a-z]+ \d{1,2}, \d{4}", line))
    assert dated < next(i for i, line in enumerate(lines) if line.startswith("Dear")), lines[:8]
