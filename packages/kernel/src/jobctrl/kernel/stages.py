"""The stage of a job: the one stage vocabulary of every context, event and API (ADR 0185).

A job moves through these stages in this order; the stage machine (orchestration) owns their states,
the activities report through the ``StageTracker`` port, the read models and the API show them.  The
values are the stored ones (``StageStarted.stage``, ``MaterialsExhausted.stage``, ...).
"""

from __future__ import annotations

from typing import Final, Literal

Stage = Literal["discover", "enrich", "score", "tailor", "cover", "apply"]
#: Every stage, in pipeline order.
STAGES: Final[tuple[Stage, ...]] = ("discover", "enrich", "score", "tailor", "cover", "apply")
