"""``jobctrl scores correct JOB_ID SCORE --reason TEXT`` and ``jobctrl scores rescore [JOB_ID ...]``.

The same use cases as ``POST /v1/jobs/{id}/score/corrections`` and ``POST /v1/scores/rescore-requests``
(ADR 0148): ``correct`` records a hand correction (a new score version; the original stays in the
log); ``rescore`` marks the scores made under an older scoring policy stale, for the named jobs or
every scored job, so the next preparation scores them again.  Bad input exits 2 with the error's code
and writes nothing; the rules (range, a reason, a different score) are the use case's own.
"""

from __future__ import annotations

from typing import Annotated

import typer

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import InvalidIdError, checked_id
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.storage import open_configured_database
from jobctrl.scoring import CorrectScore, correct_score, request_rescores

app = typer.Typer(no_args_is_help=True, help="Correct a score, or ask for scores to be made again.")


def _refuse(code: str, message: str) -> typer.Exit:
    typer.echo(f"{code}: {message}; nothing was written", err=True)
    return typer.Exit(2)


def _store() -> EventStore:
    store = EventStore(open_configured_database(), registry())
    store.create_schema()
    return store


def _checked(job_ids: list[str]) -> list[str]:
    try:
        return [checked_id(job_id) for job_id in job_ids]
    except InvalidIdError as exc:
        raise _refuse("invalid_request", str(exc)) from None


@app.command("correct")
def correct(
    job_id: Annotated[str, typer.Argument(help="The job whose score to correct.")],
    score: Annotated[int, typer.Argument(help="The corrected score, 1 to 10.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept with the correction).")],
) -> None:
    """Correct a job's score by hand: a new score version, the original kept in the log."""
    [job_id] = _checked([job_id])
    store = _store()
    try:
        version = correct_score(CorrectScore(job_id, score, reason), store=store, clock=SystemClock())
    except JobCtrlError as exc:
        raise _refuse(exc.code, exc.message) from None
    finally:
        store.db.dispose()
    typer.echo(f"{job_id}: score corrected to {score} (score version {version})")


@app.command("rescore")
def rescore(
    job_ids: Annotated[
        list[str] | None, typer.Argument(help="The jobs to score again (none: every scored job).")
    ] = None,
) -> None:
    """Mark scores made under an older scoring policy stale: the next preparation scores them again."""
    named = _checked(job_ids) if job_ids else None
    store = _store()
    try:
        requested = request_rescores(store=store, clock=SystemClock(), job_ids=named)
    except JobCtrlError as exc:
        raise _refuse(exc.code, exc.message) from None
    finally:
        store.db.dispose()
    if not requested:
        typer.echo("no score is stale: every score was made under the current policy")
    for job_id in requested:
        typer.echo(f"{job_id}: rescore requested")
