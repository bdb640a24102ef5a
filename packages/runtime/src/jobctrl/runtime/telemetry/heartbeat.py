"""The ``worker_runtime_heartbeats`` row: one per worker, upserted every 15 s; stale after 45 s."""

from __future__ import annotations

import json
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, delete, insert, select
from temporalio.api.enums.v1 import TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest
from temporalio.client import Client

from jobctrl.kernel.clock import isoformat, parse_instant
from jobctrl.kernel.store import Database
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry

SCHEMA_VERSION = 2
INTERVAL_SECONDS = 15.0
STALE_AFTER = timedelta(seconds=45)

metadata = MetaData()
worker_runtime_heartbeats = Table(
    "worker_runtime_heartbeats",
    metadata,
    Column("worker_id", String(100), primary_key=True),
    Column("pid", Integer, nullable=False),
    Column("hostname", String(200), nullable=False),
    Column("app_dir", Text, nullable=False),
    Column("db_path", Text, nullable=False),
    Column("task_queue", String(200), nullable=False),
    Column("started_at", String(40), nullable=False),
    Column("last_seen_at", String(40), nullable=False),
    Column("configured_slots", Integer, nullable=False),
    Column("executor_threads", Integer, nullable=False),
    Column("active_count", Integer, nullable=False),
    Column("per_kind_json", Text, nullable=False),
    Column("details_json", Text, nullable=False),
    Column("details_total", Integer, nullable=False),
    Column("details_truncated", Integer, nullable=False),
    Column("durations_json", Text, nullable=False),
    Column("task_queue_json", Text, nullable=True),
    Column("schema_version", Integer, nullable=False),
)


@dataclass(frozen=True)
class RuntimeIdentity:
    worker_id: str
    pid: int
    hostname: str
    app_dir: str
    db_path: str
    task_queue: str
    started_at: str
    configured_slots: int

    @classmethod
    def current(
        cls, *, app_dir: str, db_path: str, task_queue: str, slots: int, now: datetime
    ) -> RuntimeIdentity:
        return cls(
            worker_id=f"worker-{uuid.uuid4().hex[:16]}",
            pid=os.getpid(),
            hostname=socket.gethostname(),
            app_dir=app_dir,
            db_path=db_path,
            task_queue=task_queue,
            started_at=isoformat(now),
            configured_slots=slots,
        )


def create_table(db: Database) -> None:
    # In a write transaction (the ``--projections`` runner may be committing meanwhile).
    db.create_tables(metadata, [worker_runtime_heartbeats])


async def observe_task_queue(client: Client, namespace: str, task_queue: str) -> dict[str, Any] | None:
    """Approximate infrastructure facts (pollers, backlog); never job counts.  None if unavailable."""
    try:
        response = await client.workflow_service.describe_task_queue(
            DescribeTaskQueueRequest(
                namespace=namespace,
                task_queue=TaskQueue(name=task_queue),
                task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
                report_stats=True,
            )
        )
    except Exception:  # the observation is optional telemetry
        return None
    stats = response.stats
    return {
        "approximate": True,
        "activityPollers": len(response.pollers),
        "backlogCount": int(stats.approximate_backlog_count) if stats else None,
        "addRate": round(float(stats.tasks_add_rate), 3) if stats else None,
        "dispatchRate": round(float(stats.tasks_dispatch_rate), 3) if stats else None,
    }


def write_heartbeat(
    db: Database,
    identity: RuntimeIdentity,
    telemetry: RuntimeTelemetry,
    now: datetime,
    task_queue_observation: dict[str, Any] | None,
) -> None:
    snap = telemetry.snapshot()
    row = {
        "worker_id": identity.worker_id,
        "pid": identity.pid,
        "hostname": identity.hostname,
        "app_dir": identity.app_dir,
        "db_path": identity.db_path,
        "task_queue": identity.task_queue,
        "started_at": identity.started_at,
        "last_seen_at": isoformat(now),
        "configured_slots": identity.configured_slots,
        "executor_threads": identity.configured_slots + 2,
        "active_count": snap.active_count,
        "per_kind_json": json.dumps(snap.per_kind, sort_keys=True),
        "details_json": json.dumps(snap.details),
        "details_total": snap.details_total,
        "details_truncated": int(snap.truncated),
        "durations_json": json.dumps(snap.durations, sort_keys=True),
        "task_queue_json": json.dumps(task_queue_observation) if task_queue_observation is not None else None,
        "schema_version": SCHEMA_VERSION,
    }
    with db.write() as conn:  # delete + insert: a portable upsert under the write lock
        conn.execute(
            delete(worker_runtime_heartbeats).where(
                worker_runtime_heartbeats.c.worker_id == identity.worker_id
            )
        )
        conn.execute(insert(worker_runtime_heartbeats), [row])


def fresh_heartbeats(db: Database, now: datetime) -> list[dict[str, Any]]:
    with db.read() as conn:
        rows = conn.execute(select(worker_runtime_heartbeats)).mappings().all()
    return [dict(r) for r in rows if now - parse_instant(r["last_seen_at"]) <= STALE_AFTER]
