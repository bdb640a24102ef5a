"""``open_preparation``: a preparation's first three activities as one local activity (ADR 0391).

The started record, the spend gate and the checkpoint read ran as three local activities of the
preparation's first workflow task (ADR 0236, 0383): three executor hand-offs, three markers and three
activations of one task, queued for the worker's local-activity slots at a fan-out (ADR 0384).  This
activity runs the same three functions, the ones the worker registered under their own names (the
runtime's, the composition root's or a test's fakes), in the same order on one executor thread: the
started record (idempotent), then the gate (``budget_exceeded`` raised as it is, non-retryable), then
the checkpoint (read-only).  A retry runs all three again, which each of them allows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from temporalio import activity

from jobctrl.activity_contracts.contracts import PreparationOpened, PreparationOpenInput
from jobctrl.kernel.errors import ConfigurationError

OPEN_PREPARATION = "open_preparation"
#: What ``open_preparation`` runs, in order.
PARTS: tuple[str, ...] = ("record_workflow_started", "check_spend_budget", "load_preparation_checkpoint")


def open_preparation_activity(registry: Mapping[str, Callable[..., Any]]) -> Callable[..., Any]:
    """``open_preparation`` over the registered parts; refused (``ConfigurationError``) if one is
    missing or is not a plain function (an async part cannot run on the executor's thread)."""
    missing = [name for name in PARTS if name not in registry]
    if missing:
        raise ConfigurationError(f"open_preparation needs the activities {', '.join(missing)}")
    started, gate, checkpoint = (registry[name] for name in PARTS)
    not_sync = [n for n in PARTS if inspect.iscoroutinefunction(registry[n])]
    if not_sync:
        raise ConfigurationError(f"open_preparation runs its parts on a thread; async: {', '.join(not_sync)}")

    @activity.defn(name=OPEN_PREPARATION)
    def open_preparation(params: PreparationOpenInput) -> PreparationOpened:
        started(params.started)
        spend = gate(params.spend)
        return PreparationOpened(spend=spend, checkpoint=checkpoint(params.checkpoint))

    return open_preparation
