# JobCtrl — thin, documented wrappers.  Every target sets itself up on a fresh machine:
# uv is installed with pip when missing, then the locked workspace is synced.
SHELL := /bin/bash
.DEFAULT_GOAL := help
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
RUN := $(UV) run --all-packages --locked
# The documentation site: strict (a warning is an error) and offline (no remote resource in any page).
DOCS_BUILD := NO_MKDOCS_2_WARNING=1 $(RUN) mkdocs build --strict --quiet && $(RUN) python -m jobctrl.testing.docsite.offline .site

.PHONY: help install browser pdftools services test test-fast check lint types imports schemas docs bench chaos demo clean

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  \033[1m%-10s\033[0m %s\n", $$1, $$2}'

install: ## Install uv (if missing) and the locked workspace into .venv
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet --user uv || python3 -m pip install --quiet uv
	@$(UV) sync --all-packages --locked --quiet

browser: ## Install Debian's chromium (for PDF rendering and browser tests) if missing
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

pdftools: ## Install Debian's poppler-utils (pdftoppm, pdfinfo: the PDF layout tests) if missing
	@command -v pdftoppm >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null; }

services: ## Start the local PostgreSQL server if it is not answering
	@pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done; echo "PostgreSQL did not start" >&2; exit 1

test: install browser pdftools services ## Run the whole test suite (SQLite and PostgreSQL, Temporal dev server, Chromium)
	@$(RUN) pytest -q

check: install ## Lint, strict types, import boundaries, generated-schema parity, module size, the strict docs build
	@$(RUN) ruff check .
	@$(RUN) ruff format --check .
	@$(RUN) mypy
	@$(RUN) lint-imports
	@$(RUN) jobctrl schemas check
	@$(RUN) python -m jobctrl.testing.module_size
	@$(RUN) python -m jobctrl.testing.context_shape
	@$(DOCS_BUILD)

docs: install ## Build the documentation site into .site/ (offline, strict: a broken link or reference fails)
	@$(DOCS_BUILD)
	@echo "built .site/index.html"

schemas: install ## Regenerate packages/domain-types/src/events from the registry
	@$(RUN) jobctrl schemas generate

bench: install services ## Measure throughput; prints ratios against same-run baselines, writes .bench/results.json
	@$(RUN) python -m jobctrl.testing.bench

chaos: install services ## Kill -9 the worker and the projector in JOBCTRL_CHAOS_RUNS runs (default 200; `make test` runs 20)
	@JOBCTRL_CHAOS_RUNS=$${JOBCTRL_CHAOS_RUNS:-200} $(RUN) pytest packages/runtime/tests/test_runtime_chaos.py -q -p no:cacheprovider --timeout=0 -o faulthandler_timeout=0

demo: install browser ## The main job: run the whole pipeline on the embedded defaults
	@$(RUN) jobctrl demo

clean: ## Remove caches and the virtualenv
	rm -rf .venv .mypy_cache .ruff_cache .pytest_cache .bench .site
