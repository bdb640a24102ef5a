"""``jobctrl profile import FILE [--dry-run]`` and ``jobctrl profile show [--format json]``.

Import reads a JSON Resume document (schema v1.0.0) or the project's own profile JSON (the saved
document's sections, or the flat shape of ``jobctrl.materials.domain.sample.SAMPLE_PROFILE``), gives every
entry without an id a stable one, validates, and saves one new profile version through the same use
case as ``PATCH /v1/profile`` (``save_profile``).  Any problem exits 2 listing each
field path, and nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import (
    InvalidJsonResume,
    InvalidProfile,
    assign_missing_ids,
    load_profile,
    looks_like_json_resume,
    normalize_profile,
    save_profile,
)
from jobctrl.orchestration import to_document as json_resume_document
from jobctrl.runtime.composition.profiles import to_document as flat_document
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Your candidate profile.")
MAX_FILE_BYTES = 2_000_000


def _refuse(problems: list[tuple[str, str]], what: str) -> typer.Exit:
    typer.echo(f"{what}; nothing was saved:", err=True)
    for path, reason in problems:
        typer.echo(f"  {path}: {reason}", err=True)
    return typer.Exit(2)


def document_of(data: Any) -> tuple[str, dict[str, Any]]:
    """(the format recognised, the saved-document form) of a parsed file."""
    if not isinstance(data, dict):
        raise InvalidProfile(problems=[("(document)", "must be a JSON object")])
    if looks_like_json_resume(data):
        return "JSON Resume", json_resume_document(data)
    if "experiences" in data or "name" in data:
        data = {k: v for k, v in data.items() if k != "version"}
        return "JobCtrl profile (flat)", assign_missing_ids(flat_document(data))
    return "JobCtrl profile", assign_missing_ids(data)


@app.command("import")
def import_profile(
    file: Annotated[Path, typer.Argument(help="A JSON Resume file, or a JobCtrl profile JSON file.")],
    dry_run: bool = typer.Option(False, "--dry-run", help="Validate only; save nothing."),
) -> None:
    """Import your profile: validate it and save it as a new profile version."""
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise _refuse([(str(file), exc.strerror or "unreadable")], "cannot read the profile") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse([(str(file), f"larger than {MAX_FILE_BYTES} bytes")], "profile file too large")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _refuse([(str(file), f"not JSON: {exc}")], "cannot read the profile") from None
    try:
        kind, document = document_of(data)
        normalized = normalize_profile(document)
    except InvalidJsonResume as exc:
        raise _refuse(exc.problems, "not a valid JSON Resume (v1.0.0)") from None
    except InvalidProfile as exc:
        raise _refuse(exc.problems or [("(document)", exc.message)], "invalid profile") from None
    experiences = len(normalized.get("experience", []))
    if dry_run:
        typer.echo(f"valid {kind}: {experiences} experiences; nothing saved (--dry-run)")
        return
    db = open_configured_database()
    try:
        store = EventStore(db, registry())
        store.create_schema()
        try:
            outcome = save_profile(store, document)
        except InvalidProfile as exc:
            raise _refuse(exc.problems or [("(document)", exc.message)], "invalid profile") from None
        version = load_profile(store).profile_version
    finally:
        db.dispose()
    typer.echo(f"imported {kind}: profile version {version} ({outcome.value}), {experiences} experiences")


@app.command("show")
def show(output: str = typer.Option("text", "--format", help="text or json")) -> None:
    """Show the saved profile (its current version)."""
    if output not in ("text", "json"):
        typer.echo("--format must be text or json", err=True)
        raise typer.Exit(2)
    db = open_configured_database()
    try:
        store = EventStore(db, registry())
        store.create_schema()
        profile = load_profile(store)
    finally:
        db.dispose()
    if output == "json":
        typer.echo(
            json.dumps({"profileVersion": profile.profile_version, "content": profile.content}, indent=2)
        )
        return
    if profile.profile_version == 0:
        typer.echo("no profile saved yet: jobctrl profile import resume.json")
        return
    content = profile.content
    contact = content.get("contact", {})
    name, headline = contact.get("name", "?"), contact.get("headline", "")
    typer.echo(f"profile version {profile.profile_version}: {name}, {headline}")
    for key in ("email", "phone", "location"):
        if contact.get(key):
            typer.echo(f"  {key}: {contact[key]}")
    for link in contact.get("links", []):
        typer.echo(f"  {link.get('label')}: {link.get('url')}")
    auth = content.get("workAuthorization")
    if auth:
        needs = "needs sponsorship" if auth.get("requiresSponsorship") else "no sponsorship needed"
        typer.echo(f"  work authorization: {', '.join(auth.get('countries', [])) or '-'} ({needs})")
    for exp in content.get("experience", []):
        span = f"{exp.get('start')} to {exp.get('end') or 'now'}"
        techs = ", ".join(exp.get("technologies", []))
        typer.echo(f"  {exp.get('title')} at {exp.get('employer')} ({span}) [{techs}]")
    for cat in content.get("skills", []):
        typer.echo(f"  {cat.get('name')}: {', '.join(cat.get('skills', []))}")
