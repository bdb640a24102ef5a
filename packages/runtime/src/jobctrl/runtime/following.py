"""Keep the read models current beside a running process: the one projection runner in a thread.

``following_projections(db)`` prepares a ``jobctrl.projections.ProjectionRunner`` (migrate, watermark,
self-heal), follows the log in a daemon thread for the body of the ``with``, then stops it gracefully,
re-raises a follower failure as ``ProjectionFollowFailed`` and folds what is left, so on exit the
watermark is at the log head.  Used by ``jobctrl demo`` and ``jobctrl worker --projections``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.projections import ProjectionRunner


class ProjectionFollowFailed(JobCtrlError):
    """The background projection runner stopped on an error (re-raised when the body ends)."""

    code = "projection_follow_failed"
    retryable = True


@contextmanager
def following_projections(db: Database, poll_interval: float = 0.25) -> Iterator[ProjectionRunner]:
    """Run the projection runner in a background thread for the body; on exit stop it gracefully and
    catch up to the log head in the caller's thread, so the read models end current."""
    runner = ProjectionRunner(db, registry(), poll_interval=poll_interval)
    runner.prepare()
    failure: list[BaseException] = []

    def follow() -> None:
        try:
            runner.run()
        except BaseException as exc:  # surfaced after join: a dead follower must not pass silently
            failure.append(exc)

    thread = threading.Thread(target=follow, name="jobctrl-projections", daemon=True)
    thread.start()
    try:
        yield runner
    finally:
        runner.stop()
        thread.join(timeout=60)
    if failure:
        raise ProjectionFollowFailed(f"the projection runner failed: {failure[0]!r}") from failure[0]
    while runner.step():  # step() ignores the stop flag: the final catch-up to the head
        pass
