"""The commented ``config.toml`` that ``jobctrl init`` writes (every line it sets is a default)."""

from __future__ import annotations

TEMPLATE = """\
# JobCtrl configuration.  `jobctrl config show` prints the effective value of every key and where it
# came from (environment, this file, or the default).  Environment variables win over this file:
# JOBCTRL_LLM_PROVIDER, JOBCTRL_LLM_BASE_URL, JOBCTRL_LLM_MODEL, JOBCTRL_LLM_API_KEY, and the older
# JOBCTRL_DATABASE_URL, TEMPORAL_ADDRESS, JOBCTRL_PDF_RENDERERS, JOBCTRL_WORKER_ACTIVITY_SLOTS, ...
# An unknown key or a bad value stops every command with exit status 2, naming the key.

[llm]
# "offline": deterministic, network-free rules (the default).  "openai-compatible": any endpoint
# that speaks the OpenAI chat API (a hosted API, Ollama, vLLM, llama.cpp), through instructor.
provider = "offline"
# base_url = "http://127.0.0.1:11434/v1"     # Ollama; llama.cpp serves http://127.0.0.1:8080/v1
# model = "llama3.1:8b"
# The API key is never written here: name the environment variable that holds it.
# (JOBCTRL_LLM_API_KEY wins; keyless local servers need none.)
api_key_env = "OPENAI_API_KEY"
# mode = "tools"            # "json" for servers without tool calling
# timeout_seconds = 60
# max_retries = 0           # re-asks inside one call; Temporal retries transient failures
#
# Prices in USD per million tokens, per model name.  Unpriced models use built-in family rates; an
# unpriced model on a 127.0.0.1/localhost endpoint costs nothing; any other unpriced model is
# charged a generic rate so a hosted model is never recorded as free.
# [llm.prices."llama3.1:8b"]
# input = 0
# output = 0

[search]
# Applied to every source's postings.  Words and phrases, matched case-insensitively.
keywords = []        # e.g. ["python", "platform"]: at least one in the title or description
locations = []       # e.g. ["London", "Berlin"]: at least one in the location (remote passes)
remote = "any"       # "any", "only" or "exclude"
seniority = []       # e.g. ["senior", "staff"]: at least one in the title
exclusions = []      # e.g. ["intern", "manager"]: none in the title

[discovery]
# Broad boards (Indeed, LinkedIn, ...) through JobSpy, for `jobctrl sources add jobspy ...` sources.
# Off by default: the library scrapes those sites with its own HTTP, which robots.txt cannot gate.
broad_boards = false    # or JOBCTRL_BROAD_BOARDS=1

[materials]
paper_size = "letter"   # "letter" or "a4", for the resume and the cover letter
template = "classic"

[apply]
# Seeds of the saved settings (change them live with `PATCH /v1/settings`).
auto_apply = false
approval_required = true
min_fit_score = 7
# Hosts whose application forms an approved live run submits itself (exact, lower-case host names).
# Any other site: the run fills the form and hands it to you (`jobctrl apply open JOB_ID`).
browser_submit_allowlist = []      # e.g. ["jobs.acme.example"]

# [worker]
# activity_slots = 4
# pdf_renderers = 2
# daily_budget_usd = 25.0

# [storage]
# database_url = "postgresql+psycopg://user@127.0.0.1:5432/jobctrl"   # default: SQLite here

# [temporal]
# address = "127.0.0.1:7233"     # default: the embedded dev server
# namespace = "default"
# task_queue = "jobctrl-default"
"""
