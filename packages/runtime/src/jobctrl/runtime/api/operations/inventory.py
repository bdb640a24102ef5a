"""Runtime inventory from ``worker_runtime_heartbeats``: capacity, freshness, active items."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.clock import parse_instant
from jobctrl.kernel.store import Database
from jobctrl.runtime.api.operations.models import (
    _ORCHESTRATION_KINDS,
    _SOURCE_KINDS,
    ACTIVE_ITEMS_LIMIT,
    ActiveItem,
    Capacity,
    Freshness,
    QueueObservation,
    SnapshotInputs,
)
from jobctrl.runtime.telemetry.heartbeat import (
    SCHEMA_VERSION,
    STALE_AFTER,
    worker_runtime_heartbeats,
)

# ---------------------------------------------------------------- runtime inventory (heartbeats)


@dataclass
class _Inventory:
    capacity: Capacity
    freshness: Freshness
    active_stage_counts: dict[str, int] | None
    active_items: list[ActiveItem] = field(default_factory=list)
    active_items_total: int | None = None
    truncated: bool = False


def _valid(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """Decode a heartbeat's JSON parts; None when the row is not schema-valid."""
    if row["schema_version"] != SCHEMA_VERSION:
        return None
    try:
        per_kind = json.loads(row["per_kind_json"])
        details = json.loads(row["details_json"])
        queue = json.loads(row["task_queue_json"]) if row["task_queue_json"] else None
        seen = parse_instant(row["last_seen_at"])
    except (ValueError, TypeError):
        return None
    if not isinstance(per_kind, dict) or not isinstance(details, list):
        return None
    return {"per_kind": per_kind, "details": details, "queue": queue, "seen": seen}


def _queue(raw: Any) -> QueueObservation | None:
    if not isinstance(raw, dict):
        return None
    try:
        return msgspec.convert({**raw, "approximate": True}, QueueObservation)
    except msgspec.ValidationError:
        return None  # an unreadable observation is absent, not zero


def _item_kind(activity: str) -> Literal["source_family", "orchestration", "unresolved_runtime_activity"]:
    if activity in _SOURCE_KINDS:
        return "source_family"
    if activity in _ORCHESTRATION_KINDS:
        return "orchestration"
    # Telemetry never carries a job id (privacy boundary), so per-job work stays unresolved here.
    return "unresolved_runtime_activity"


def _active_item(detail: Any) -> ActiveItem | None:
    if not isinstance(detail, dict) or not isinstance(detail.get("kind"), str):
        return None
    started = detail.get("startedAt")
    attempt = detail.get("attempt")
    return ActiveItem(
        kind=_item_kind(detail["kind"]),
        activity=detail["kind"],
        workflow_id=detail.get("workflowId") if isinstance(detail.get("workflowId"), str) else None,
        run_id=detail.get("runId") if isinstance(detail.get("runId"), str) else None,
        attempt=attempt if isinstance(attempt, int) else None,
        started_at=float(started) if isinstance(started, int | float) else None,
    )


def database_identity(db: Database) -> str:
    """The ``db_path`` a worker of this database writes into its heartbeat (see ``worker.py``)."""
    url = db.engine.url
    return (url.database or "") if db.is_sqlite else url.render_as_string(hide_password=True)


def _same_database(recorded: str, expected: str) -> bool:
    if recorded == expected:
        return True
    if "://" in recorded or "://" in expected or not recorded or not expected:
        return False  # server URLs compare exactly; a file path compares by its resolved location
    return Path(recorded).resolve() == Path(expected).resolve()


def expected_app_dir(db_path: str) -> str:
    """The app directory a worker of this database reports: the database file's directory (a server
    database has none)."""
    return "" if "://" in db_path or not db_path else str(Path(db_path).parent)


def same_runtime(row: Mapping[str, Any], db_path: str) -> bool:
    """A heartbeat of this installation: the same resolved database and app directory (spec, "Runtime
    capacity"); a worker of another home never counts."""
    if not _same_database(str(row["db_path"]), db_path):
        return False
    recorded, expected = str(row["app_dir"]), expected_app_dir(db_path)
    if recorded == expected:
        return True
    return bool(recorded and expected) and Path(recorded).resolve() == Path(expected).resolve()


def read_inventory(conn: sa.Connection, inputs: SnapshotInputs) -> _Inventory:
    rows = [dict(r) for r in conn.execute(sa.select(worker_runtime_heartbeats)).mappings()]
    if inputs.db_path is not None:
        # Only workers of this installation: the same resolved database and app directory.
        db_path = inputs.db_path
        rows = [r for r in rows if same_runtime(r, db_path)]
    decoded = [(r, _valid(r)) for r in rows]
    valid = [(r, d) for r, d in decoded if d is not None]
    invalid = len(decoded) - len(valid)
    if not valid:
        cap = Capacity("unavailable", None, None, None, None, None, 0, 0, invalid, None)
        # Rows this reader cannot interpret (another schema version) are "unsupported", not absent.
        return _Inventory(cap, "unsupported" if invalid else "unavailable", None, [], None, False)
    # The task queue named by the newest matching heartbeat; workers on other queues are not ours.
    newest = max(valid, key=lambda rd: rd[1]["seen"])
    queue_name = newest[0]["task_queue"]
    on_queue = [(r, d) for r, d in valid if r["task_queue"] == queue_name]
    fresh = [(r, d) for r, d in on_queue if inputs.now - d["seen"] <= STALE_AFTER]
    stale_count = len(on_queue) - len(fresh)
    if not fresh:
        cap = Capacity("stale", queue_name, None, None, None, None, 0, stale_count, invalid, None)
        return _Inventory(cap, "stale", None, [], None, False)
    configured = sum(int(r["configured_slots"]) for r, _ in fresh)
    active = sum(int(r["active_count"]) for r, _ in fresh)
    per_kind: Counter[str] = Counter()
    items: list[ActiveItem] = []
    total, truncated = 0, False
    for r, d in fresh:
        per_kind.update({str(k): int(v) for k, v in d["per_kind"].items() if isinstance(v, int)})
        items.extend(i for i in (_active_item(x) for x in d["details"]) if i is not None)
        total += int(r["details_total"])
        truncated = truncated or bool(r["details_truncated"])
    items.sort(key=lambda i: (i.started_at is None, i.started_at or 0.0))
    truncated = truncated or total > ACTIVE_ITEMS_LIMIT or len(items) > ACTIVE_ITEMS_LIMIT
    newest_fresh = max(fresh, key=lambda rd: rd[1]["seen"])[1]["queue"]
    cap = Capacity(
        status="shared_activity_pool",
        task_queue=queue_name,
        slots_configured=configured,
        slots_active=active,
        slots_available=max(0, configured - active),
        executor_threads=sum(int(r["executor_threads"]) for r, _ in fresh),
        workers_fresh=len(fresh),
        workers_stale=stale_count,
        workers_invalid=invalid,
        queue=_queue(newest_fresh),
    )
    return _Inventory(
        cap, "fresh", dict(sorted(per_kind.items())), items[:ACTIVE_ITEMS_LIMIT], total, truncated
    )
