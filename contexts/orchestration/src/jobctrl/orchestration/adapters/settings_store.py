"""Loading and saving the settings document; an invalid change raises and saves nothing.

The document keeps only the keys that were saved.  A key never saved comes from the seed (the
configuration and environment, handed in by the runtime), else from the defaults -- per key, so
saving one setting does not freeze every other one at its default (ADR 0192).  A document saved
before this rule holds every key, and so reads as before.

``update(changes, unset=keys)`` also removes saved keys, which then read from the seed or the default
again (ADR 0272); an unknown key to unset is refused like an unknown key to set, and nothing is saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import ValidationError
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.orchestration.adapters.tables import jobctrl_settings
from jobctrl.orchestration.domain.settings.model import OrchestrationSettings

_NAME = "orchestration"


class InvalidSettings(JobCtrlError):
    code = "invalid_settings"
    retryable = False

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _problems(exc: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}" for err in exc.errors()]


Seed = Mapping[str, Any] | Callable[[], Mapping[str, Any]]


def _validated(document: Mapping[str, Any]) -> OrchestrationSettings:
    try:
        return OrchestrationSettings.model_validate_json(json.dumps(dict(document)))
    except (ValidationError, TypeError, ValueError) as exc:
        problems = _problems(exc) if isinstance(exc, ValidationError) else [str(exc)]
        raise InvalidSettings(problems) from None


class SettingsStore:
    def __init__(self, db: Database, *, clock: Clock | None = None, seed: Seed | None = None) -> None:
        self.db = db
        self.clock = clock or SystemClock()
        self._seed = seed

    def seed(self) -> dict[str, Any]:
        """The seed's values (re-read on every call when given as a callable)."""
        seed = self._seed() if callable(self._seed) else self._seed
        return dict(seed or {})

    def saved_document(self) -> dict[str, Any] | None:
        """The keys saved so far and their values, or None when nothing was ever saved."""
        # Driver SQL (ADR 0395): the spend preflight of every preparation reads the ceiling here.
        rows = self.db.fetch(f"SELECT document FROM jobctrl_settings WHERE name = {self.db.mark}", [_NAME])
        document = rows[0][0] if rows else None
        if document is None:
            return None
        saved = json.loads(document)
        if not isinstance(saved, dict):
            raise InvalidSettings(["settings: the saved document is not an object"])
        return saved

    def load(self) -> OrchestrationSettings:
        """Per key: the saved value, else the seed's, else the default."""
        return _validated({**self.seed(), **(self.saved_document() or {})})

    def load_saved(self) -> OrchestrationSettings | None:
        """The saved keys over the defaults, or None when nothing was ever saved."""
        saved = self.saved_document()
        return None if saved is None else _validated(saved)

    def update(self, changes: dict[str, Any], *, unset: Iterable[str] = ()) -> OrchestrationSettings:
        """Save ``changes`` beside the keys saved before, less the ``unset`` ones; validate the whole
        result before writing.  Returns the settings in effect after the save (unsaved keys still from
        the seed).  Unsetting only keys that were never saved writes nothing."""
        removed = set(unset)
        unknown = sorted(removed - set(OrchestrationSettings.model_fields))
        if unknown:
            raise InvalidSettings([f"{key[:80]}: no such setting to unset" for key in unknown])
        if removed & set(changes):
            raise InvalidSettings([f"{key}: both set and unset" for key in sorted(removed & set(changes))])
        before = self.saved_document()
        if not changes and not removed & set(before or {}):
            return self.load()
        saved = {**{k: v for k, v in (before or {}).items() if k not in removed}, **changes}
        settings = _validated({**self.seed(), **saved})
        _validated(saved)  # the document alone must also be valid: it outlives the seed
        row = {
            "name": _NAME,
            "document": json.dumps(settings.model_dump(include=set(saved)), sort_keys=True),
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
