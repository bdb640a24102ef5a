"""What each error code means, read from the error taxonomy (``jobctrl.kernel.errors``).

Every ``JobCtrlError`` subclass in the product packages is found by importing them and walking the
subclass tree; its ``code``, ``retryable`` flag and docstring are the page.  Only the *operator's
action* for the kernel's base codes is written here, and a test checks that these keys are exactly
the kernel's ``RETRYABLE_CODES | NON_RETRYABLE_CODES``.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from jobctrl.kernel.errors import NON_RETRYABLE_CODES, RETRYABLE_CODES, JobCtrlError

PRODUCT_PACKAGES: tuple[str, ...] = (
    "jobctrl.kernel",
    "jobctrl.llm",
    "jobctrl.politeness",
    "jobctrl.activity_contracts",
    "jobctrl.domain_types",
    "jobctrl.projections",
    "jobctrl.discovery",
    "jobctrl.enrichment",
    "jobctrl.scoring",
    "jobctrl.materials",
    "jobctrl.apply",
    "jobctrl.contact",
    "jobctrl.orchestration",
    "jobctrl.runtime",
)

ACTIONS: dict[str, str] = {
    "configuration": "A setting or the code's wiring is wrong. Fix the named setting "
    "(see [Configuration](configuration.md)) and restart; retrying changes nothing.",
    "authentication": "A credential was refused. Check the token or key the message names; no retry helps.",
    "missing_input": "Something the step needs is absent (a profile, a posting, an artifact). Supply it, "
    "then retry the stage (`POST /v1/jobs/{id}/retry-and-run` or the dashboard).",
    "budget_exceeded": "The daily LLM spend ceiling is reached. Wait for the next UTC day or raise the "
    "budget in settings; work resumes on the next run.",
    "attempt_budget_exhausted": "The stage failed as often as its attempt budget allows and is "
    "`exhausted`. Read the last error on the job's stage, fix the cause, then retry the stage by hand.",
    "transient_network": "A network call failed in a way that may pass. Temporal retries it with "
    "backoff; act only if it persists (check connectivity and the remote service).",
    "llm_transient": "The model endpoint failed transiently (timeout, 5xx, rate limit). Retried "
    "automatically; if it persists check the provider's status and your endpoint settings.",
    "source_unavailable": "A job source did not answer. Retried; repeated failures move the source "
    "towards quarantine (see source health).",
    "storage_unavailable": "The database this process opened is gone, replaced, read-only, full or "
    "unreachable (the `reason` says which; the API answers 503, the CLI exits 3). Restore the database, "
    "free space or make it writable; never start a new one over it (ADR 0102).",
    "unclassified": "An unexpected exception: a bug. It is retried a bounded number of times; report it "
    "with the workflow id and the log lines around it.",
}


@dataclass(frozen=True)
class ErrorKind:
    code: str
    retryable: bool
    classes: tuple[str, ...]
    meaning: str


def _import_all() -> None:
    for name in PRODUCT_PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            if ".tests" in info.name or ".migrations" in info.name or info.name.endswith("__main__"):
                continue
            importlib.import_module(info.name)


def _subclasses(cls: type[JobCtrlError]) -> list[type[JobCtrlError]]:
    out: list[type[JobCtrlError]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def error_kinds() -> tuple[ErrorKind, ...]:
    """Every error code the product can raise, with the classes that carry it."""
    _import_all()
    by_code: dict[str, list[type[JobCtrlError]]] = {}
    candidates: list[type[JobCtrlError]] = [JobCtrlError, *_subclasses(JobCtrlError)]
    for cls in candidates:
        if not cls.__module__.startswith("jobctrl.") or cls.__module__.startswith("jobctrl.testing"):
            continue
        by_code.setdefault(cls.code, []).append(cls)
    kinds: list[ErrorKind] = []
    for code, classes in sorted(by_code.items()):
        unique = sorted(set(classes), key=lambda c: (c.__module__, c.__qualname__))
        docs = [" ".join((c.__doc__ or "").strip().split("\n\n")[0].split()) for c in unique]
        meaning = next((d for d in docs if d), "")
        kinds.append(
            ErrorKind(
                code=code,
                retryable=any(c.retryable for c in unique if c.code == code),
                classes=tuple(f"{c.__module__}.{c.__qualname__}" for c in unique),
                meaning=meaning,
            )
        )
    return tuple(kinds)


def error_codes_page() -> str:
    kinds = error_kinds()
    out = [
        "# Error codes",
        "",
        "*Generated at build time from the error taxonomy (`jobctrl.kernel.errors.JobCtrlError` and every"
        " subclass in the product packages) by `jobctrl.testing.docsite.error_codes`.*",
        "",
        "Every typed error carries a stable `code` and a `retryable` flag. A Temporal activity turns it"
        " into `ApplicationError(type=code, non_retryable=not retryable)`; the API and the read models"
        " show the code (`error_code` columns of `job_stage_states`, `pipeline_step_projections`,"
        " `workflow_run_projections`).  Retryable errors are retried by Temporal with backoff;"
        " non-retryable ones stop the step until someone acts.",
        "",
        "## The kernel's base codes",
        "",
        "| code | retryable | what to do |",
        "|---|---|---|",
    ]
    base = RETRYABLE_CODES | NON_RETRYABLE_CODES
    for code in sorted(base):
        out.append(f"| `{code}` | {'yes' if code in RETRYABLE_CODES else 'no'} | {ACTIONS[code]} |")
    out += [
        "",
        "## Every code, by the classes that raise it",
        "",
        "| code | retryable | meaning | raised as |",
        "|---|---|---|---|",
    ]
    for kind in kinds:
        action = (
            ""
            if kind.code in base
            else (" Retried automatically." if kind.retryable else " Not retried: fix the cause first.")
        )
        classes = "<br/>".join(f"`{c}`" for c in kind.classes)
        meaning = (kind.meaning or ACTIONS.get(kind.code, "")).replace("|", "\\|")
        out.append(f"| `{kind.code}` | {'yes' if kind.retryable else 'no'} | {meaning}{action} | {classes} |")
    return "\n".join(out) + "\n"
