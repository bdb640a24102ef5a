"""The one way the runtime opens its database: the configured one (ADR 0300).

``JOBCTRL_DATABASE_URL`` if set, else ``[storage] database_url`` of ``$JOBCTRL_HOME/config.toml``,
else SQLite at ``$JOBCTRL_HOME/jobctrl.db`` — the precedence ``load_config()`` already applies, so
``jobctrl events import`` writes the database ``jobctrl worker`` reads.  Every command and the API
open their database here; ``open_database`` itself is called nowhere else in the runtime (a guard
test scans for it), since its no-argument form reads only the environment and ignores the file.
"""

from __future__ import annotations

from jobctrl.kernel.store import Database, database_url_from_env, open_database
from jobctrl.runtime.config import JobctrlConfig, load_config


def configured_database_url(config: JobctrlConfig | None = None) -> str:
    """The effective database URL (environment over ``config.toml`` over the SQLite default)."""
    url = (config or load_config()).storage.database_url
    return url or database_url_from_env()


def open_configured_database(config: JobctrlConfig | None = None, *, url: str | None = None) -> Database:
    """Open ``url`` when a caller chose one explicitly (the API's tests), else the configured database.

    An invalid configuration raises ``InvalidConfiguration`` (the CLI reports it and exits 2)."""
    return open_database(url or configured_database_url(config))
