"""How this machine's Chromium is launched: one binary and one set of flags for every context that
drives it (apply's browser adapter, materials' PDF renderer, the runtime's hand-apply window).

The flags suit a container without a user session: no sandbox (root), no GPU, and none of the
browser's own background traffic (component updates, sync, first-run pages).
"""

from __future__ import annotations

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
