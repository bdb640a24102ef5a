"""``config.toml``: ``jobctrl init`` writes it, ``jobctrl config show`` says where each value came from,
a bad value stops every command with exit status 2 naming its key path, before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jobctrl.discovery.domain.search import InvalidSearchFilters, SearchFilters
from jobctrl.domain_types import registry
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import LlmSettings
from jobctrl.llm.pricing import GENERIC_RATE, ModelPrice, estimate_cost_usd
from jobctrl.materials.adapters.rendering.html import PageSize
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.config import InvalidConfiguration, JobctrlConfig, load_config
from jobctrl.runtime.settings import EnvSettings, TemporalTarget

runner = CliRunner()


def show(*, env: dict[str, str] | None = None) -> dict[str, dict[str, object]]:
    result = runner.invoke(app, ["config", "show", "--format", "json"], env=env)
    assert result.exit_code == 0, result.output
    shown: dict[str, dict[str, object]] = json.loads(result.stdout)
    return shown


def test_init_writes_a_commented_file_whose_values_validate(home: Path) -> None:
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    text = (home / "config.toml").read_text()
    assert text.count("\n#") > 20  # commented
    for section in ("[llm]", "[search]", "[materials]", "[apply]"):
        assert section in text
    config = load_config()
    assert config.llm.provider == "offline" and config.materials.paper_size == "letter"
    # A second init keeps the user's file.
    (home / "config.toml").write_text('[llm]\nmodel = "mine"\n')
    assert runner.invoke(app, ["init"]).exit_code == 0
    assert "mine" in (home / "config.toml").read_text()


def test_show_reports_each_origin(home: Path) -> None:
    home.mkdir()
    (home / "config.toml").write_text(
        '[llm]\nprovider = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "file-model"\n'
        '[llm.prices."file-model"]\ninput = 0.5\noutput = 1.5\n'
        '[search]\nkeywords = ["python"]\nremote = "only"\n'
    )
    shown = show(env={"JOBCTRL_LLM_MODEL": "env-model", "JOBCTRL_LLM_API_KEY": "sk-secret"})
    assert shown["llm.model"] == {"value": "env-model", "origin": "env", "source": "JOBCTRL_LLM_MODEL"}
    assert (
        shown["llm.base_url"]["origin"] == "file"
        and shown["llm.base_url"]["value"] == "http://127.0.0.1:9/v1"
    )
    assert shown["llm.api_key"] == {"value": "********", "origin": "env", "source": "JOBCTRL_LLM_API_KEY"}
    assert shown["llm.prices"]["value"] == {"file-model": {"input": 0.5, "output": 1.5}}
    assert shown["search.keywords"] == {
        "value": ["python"],
        "origin": "file",
        "source": str(home / "config.toml"),
    }
    assert shown["materials.paper_size"] == {"value": "letter", "origin": "default", "source": "default"}
    assert "sk-secret" not in json.dumps(shown)


def test_the_older_environment_names_still_work(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEMPORAL_ADDRESS", "127.0.0.1:7233")
    monkeypatch.setenv("JOBCTRL_TASK_QUEUE", "q-1")
    monkeypatch.setenv("JOBCTRL_WORKER_ACTIVITY_SLOTS", "3")
    monkeypatch.setenv("JOBCTRL_AUTO_APPLY", "true")
    assert TemporalTarget.from_env() == TemporalTarget("127.0.0.1:7233", "default", "q-1")
    seeds = EnvSettings().load()
    assert (seeds.worker_activity_slots, seeds.auto_apply) == (3, True)
    monkeypatch.setenv("JOBCTRL_AUTO_APPLY", "maybe")
    with pytest.raises(ConfigurationError, match=r"apply\.auto_apply.*JOBCTRL_AUTO_APPLY"):
        EnvSettings().load()


@pytest.mark.parametrize(
    ("content", "env", "expected"),
    [
        ('[llm]\nprovider = "gpt"\n', {}, "llm.provider: Input should be 'offline' or 'openai-compatible'"),
        ('[llm]\nmodle = "x"\n', {}, "llm.modle: Extra inputs are not permitted"),
        ("[serch]\nkeywords = []\n", {}, "serch: Extra inputs are not permitted"),
        ('[search]\nremote = "sometimes"\n', {}, "search.remote: Input should be 'any', 'only' or 'exclude'"),
        ('[materials]\npaper_size = "legal"\n', {}, "materials.paper_size: Input should be 'letter' or 'a4'"),
        ("", {"JOBCTRL_LLM_BASE_URL": "ftp://x"}, "llm.base_url: must be an http(s) URL"),
        (
            "",
            {"JOBCTRL_LLM_PROVIDER": "openai-compatible"},
            "llm: provider 'openai-compatible' needs base_url",
        ),
        ('[llm\nprovider = "offline"\n', {}, "(file): not valid TOML"),
        ("[llm.prices.m]\ninput = -1\noutput = 0\n", {}, "llm.prices.m.input: Input should be greater than"),
    ],
)
def test_bad_configuration_exits_2_naming_the_key_and_writes_nothing(
    home: Path, content: str, env: dict[str, str], expected: str
) -> None:
    home.mkdir()
    (home / "config.toml").write_text(content)
    before = sorted(p.name for p in home.iterdir())
    result = runner.invoke(app, ["demo"], env=env)
    assert result.exit_code == 2, result.output
    assert expected in result.stderr
    assert sorted(p.name for p in home.iterdir()) == before  # no database, no Temporal, no board


def test_environment_problems_name_the_variable(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_PDF_RENDERERS", "0")
    with pytest.raises(InvalidConfiguration) as caught:
        load_config()
    [problem] = caught.value.problems
    assert (problem.path, problem.where) == ("worker.pdf_renderers", "JOBCTRL_PDF_RENDERERS")


def test_llm_section_builds_the_provider_settings(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    offline = JobctrlConfig().llm.settings()
    assert (offline.provider, offline.model) == ("offline", "local-offline")
    monkeypatch.setenv("JOBCTRL_LLM_PROVIDER", "openai-compatible")
    monkeypatch.setenv("JOBCTRL_LLM_BASE_URL", "http://127.0.0.1:8080/v1/")
    local = load_config().llm.settings()
    assert local.provider == "openai_compatible" and local.base_url == "http://127.0.0.1:8080/v1"
    assert local.model == "local-model" and local.api_key is not None  # keyless local servers work
    assert local.free_when_unpriced
    monkeypatch.setenv("JOBCTRL_LLM_BASE_URL", "https://api.example.com/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-named-var")
    monkeypatch.setenv("JOBCTRL_LLM_MODEL", "some-hosted-model")
    hosted = load_config().llm.settings()
    assert hosted.api_key is not None and hosted.api_key.get_secret_value() == "sk-from-named-var"
    assert not hosted.free_when_unpriced
    assert hosted.cost_usd("some-hosted-model", 1_000_000, 0) == GENERIC_RATE[0]


def test_prices_per_configured_model() -> None:
    prices = {"llama3.1:8b": ModelPrice(input=0, output=0), "mine": ModelPrice(input=2, output=8)}
    assert estimate_cost_usd("llama3.1:8b", 10_000, 10_000, prices) == 0
    assert estimate_cost_usd("mine", 1_000_000, 500_000, prices) == pytest.approx(6.0)
    # Unpriced: families, then zero on a loopback endpoint only, else the generic rate.
    assert estimate_cost_usd("gpt-4o-mini", 1_000_000, 0) == pytest.approx(2.5)
    assert estimate_cost_usd("qwen2.5", 1_000_000, 0, free_when_unpriced=True) == 0
    assert estimate_cost_usd("qwen2.5", 1_000_000, 0) == pytest.approx(GENERIC_RATE[0])
    settings = LlmSettings(prices=prices)
    assert settings.cost_usd("mine", 0, 1_000_000) == pytest.approx(8.0)


def test_search_filters_match_words_not_substrings() -> None:
    anything = SearchFilters()
    assert anything.accepts_everything and anything.accepts(title="Intern")
    wanted = SearchFilters(
        keywords=("python", "go"),
        locations=("london",),
        seniority=("senior", "staff"),
        exclusions=("manager",),
    )
    assert wanted.accepts(title="Senior Backend Engineer", location="London, UK", description="Python, SQL")
    assert not wanted.accepts(title="Senior Backend Engineer", location="London", description="google cloud")
    assert wanted.accepts(title="Staff Go Engineer", location="Remote (EU)")  # remote passes a location
    assert not wanted.accepts(title="Senior Engineering Manager", location="London", description="python")
    assert not wanted.accepts(title="Backend Engineer", location="London", description="python")
    assert not wanted.accepts(title="Senior Python Engineer", location="Paris")
    only_remote = SearchFilters(remote="only")
    assert only_remote.accepts(title="Engineer", location="Remote") and not only_remote.accepts(
        title="Engineer", location="Paris"
    )
    assert not SearchFilters(remote="exclude").accepts(title="Engineer", location="Remote - US")
    assert SearchFilters(keywords=("c++",)).accepts(title="C++ developer")
    with pytest.raises(InvalidSearchFilters):
        SearchFilters(keywords=(" ",))


def test_config_search_section_is_the_discovery_value(home: Path) -> None:
    home.mkdir()
    (home / "config.toml").write_text('[search]\nkeywords = ["rust"]\nexclusions = ["intern"]\n')
    filters = load_config().search.filters()
    assert filters == SearchFilters(keywords=("rust",), exclusions=("intern",))


def test_the_configured_paper_size_reaches_rendering_and_the_readers_of_pdfs(
    home: Path, database: Database, tmp_path: Path
) -> None:
    """``[materials] paper_size`` is what the render activity renders on and what ``pdf_ids`` (run,
    demo, export, apply) looks for — one value, read once by the composition."""
    home.mkdir(parents=True)
    (home / "config.toml").write_text('[materials]\npaper_size = "a4"\n')
    store = EventStore(database, registry())
    comp = Composition.build(database, store, sources=lambda: [], artifacts_root=tmp_path / "artifacts")
    try:
        assert comp.materials.paper_size is PageSize.A4 and comp.facts.paper_size is PageSize.A4
    finally:
        comp.close()
    assert PageSize(load_config().materials.paper_size) is PageSize.A4


def test_sources_commands_use_the_configured_database(home: Path, tmp_path: Path) -> None:
    """``jobctrl sources`` opens ``[storage] database_url`` like every other command, not the
    environment's default database under ``$JOBCTRL_HOME``."""
    home.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.db"
    (home / "config.toml").write_text(f'[storage]\ndatabase_url = "sqlite:///{elsewhere}"\n')
    added = runner.invoke(app, ["sources", "add", "greenhouse", "acme", "--name", "Acme"])
    assert added.exit_code == 0, added.output
    assert elsewhere.exists() and not (home / "jobctrl.db").exists()
    listed = runner.invoke(app, ["sources", "list", "--format", "json"])
    assert listed.exit_code == 0, listed.output
    assert [s["family"] for s in json.loads(listed.stdout)] == ["greenhouse"]
    assert not (home / "jobctrl.db").exists()
