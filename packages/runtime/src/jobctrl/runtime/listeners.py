"""Who listens on a local TCP port, read from Linux's ``/proc`` (ADR 0241).

``temporal server start-dev`` cannot bind port 0 (``--port 0`` is "missing frontend port"), so the
embedded dev server is given a port that was free a moment ago.  Another process can take it in
between; the dev server then exits, or (worse) a client connects to the *other* process on it.
``listens_on(pid, port)`` settles which: the listening socket's inode, from ``/proc/net/tcp``, is
one of ``pid``'s open files.  ``None`` means this system cannot tell (no ``/proc``).
"""

from __future__ import annotations

import os
from pathlib import Path

_LISTEN = "0A"
_PROC = Path("/proc")


def _listening_inodes(port: int) -> set[str] | None:
    found: set[str] = set()
    readable = False
    for table in ("tcp", "tcp6"):
        try:
            lines = (_PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        readable = True
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != _LISTEN:
                continue
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                found.add(fields[9])
    return found if readable else None


def listens_on(pid: int, port: int) -> bool | None:
    """Whether process ``pid`` holds a listening socket on ``port``; ``None`` when unknowable here."""
    inodes = _listening_inodes(port)
    if inodes is None:
        return None
    sockets = {f"socket:[{inode}]" for inode in inodes}
    fd_dir = _PROC / str(pid) / "fd"
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return False  # the process is gone (or not ours to read): it does not hold the port for us
    for name in names:
        try:
            if os.readlink(fd_dir / name) in sockets:
                return True
        except OSError:
            continue
    return False
