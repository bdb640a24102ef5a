"""Loading and saving the settings document; an invalid change raises and saves nothing."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.orchestration.settings.model import OrchestrationSettings
from jobctrl.orchestration.tables import jobctrl_settings

_NAME = "orchestration"


class InvalidSettings(JobCtrlError):
    code = "invalid_settings"
    retryable = False

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _problems(exc: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}" for err in exc.errors()]


class SettingsStore:
    def __init__(self, db: Database, *, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock or SystemClock()

    def load(self) -> OrchestrationSettings:
        """The saved settings, or the defaults when nothing was saved."""
        return self.load_saved() or OrchestrationSettings()

    def load_saved(self) -> OrchestrationSettings | None:
        """The saved settings document, or None when nothing was ever saved."""
        with self.db.read() as conn:
            document = conn.execute(
                select(jobctrl_settings.c.document).where(jobctrl_settings.c.name == _NAME)
            ).scalar_one_or_none()
        if document is None:
            return None
        try:
            return OrchestrationSettings.model_validate_json(document)
        except ValidationError as exc:
            raise InvalidSettings(_problems(exc)) from None

    def update(self, changes: dict[str, Any]) -> OrchestrationSettings:
        """Apply ``changes`` over the current settings; validate everything before writing."""
        merged = {**self.load().model_dump(), **changes}
        try:
            settings = OrchestrationSettings.model_validate_json(json.dumps(merged))
        except (ValidationError, TypeError, ValueError) as exc:
            problems = _problems(exc) if isinstance(exc, ValidationError) else [str(exc)]
            raise InvalidSettings(problems) from None
        row = {
            "name": _NAME,
            "document": settings.model_dump_json(),
            "updated_at": isoformat(self.clock.now()),
        }
        insert = pg_insert if self.db.is_postgres else sqlite_insert
        stmt = insert(jobctrl_settings).values(**row)
        stmt = stmt.on_conflict_do_update(
            index_elements=[jobctrl_settings.c.name],
            set_={"document": stmt.excluded.document, "updated_at": stmt.excluded.updated_at},
        )
        with self.db.write() as conn:
            conn.execute(stmt)
        return settings
