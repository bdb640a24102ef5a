"""``python -m jobctrl.testing.runtime.zygote``: import the ``jobctrl`` command line once, then fork
one ``jobctrl ARGS...`` process per request, so a test that kills a worker with SIGKILL many times
restarts it in a fraction of a second instead of paying the interpreter's imports (several CPU
seconds) on every restart.

Each request is one JSON line on stdin, ``{"args": [...], "log": PATH}``; the answer is the child's
pid on stdout.  The child is the real command: its stdout and stderr go to the log, and it runs
``jobctrl.runtime.cli.main`` with those arguments in the zygote's environment, then exits with its
code.  The zygote runs no thread and no event loop and has opened no database or connection when it
forks, so a child starts as clean as a new interpreter.  Children are reaped by the kernel (SIGCHLD
ignored in the zygote), so a dead child's pid disappears at once.  End of stdin ends the zygote.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import signal
import sys
import traceback

import jobctrl.runtime.commands.projections
import jobctrl.runtime.commands.worker  # noqa: F401  (the commands' own imports, paid once)
from jobctrl.runtime.cli import main

_PR_SET_PDEATHSIG = 1


def _child(args: list[str], log: str) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the command's own subprocesses are waited for
    _die_with_the_zygote()
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.argv = ["jobctrl", *args]
    code = 1
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _die_with_the_zygote() -> None:
    """Linux's parent-death signal: when the zygote ends (its test ended, or was killed), its children
    get SIGKILL instead of polling a task queue on their own."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the test's own stop() still ends every child it started


def serve() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(list(request["args"]), str(request["log"]))
        print(pid, flush=True)


if __name__ == "__main__":
    serve()
