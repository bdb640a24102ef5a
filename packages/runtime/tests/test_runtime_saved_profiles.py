"""``SavedProfiles``: the profile shapes the activities read are kept while the profile stream's
version is unchanged, and a save by another process is seen at the next use (ADR 0376)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.runtime.composition.profiles import (
    SavedProfiles,
    materials_profile,
    scoring_profile,
    to_document,
)

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]


@pytest.fixture
def store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


@pytest.fixture
def other(db_url: str, store: EventStore) -> Iterator[EventStore]:
    """Another process's writer: its own database handle and store on the same database."""
    db = open_database(db_url)
    yield EventStore(db, registry())
    db.dispose()


def test_an_unchanged_profile_is_loaded_once_and_a_save_elsewhere_is_seen(
    store: EventStore, other: EventStore
) -> None:
    profiles = SavedProfiles(store)
    assert profiles.shape("scoring", scoring_profile) is None  # nothing saved yet
    save_profile(other, to_document(dict(SAMPLE_PROFILE)))
    first = profiles.shape("scoring", scoring_profile)
    assert first is not None and first.profile_version == 1 and profiles.loads == 2
    assert profiles.shape("scoring", scoring_profile) is first and profiles.loads == 2
    assert profiles.shape("materials", materials_profile) is not None and profiles.loads == 2

    changed = {**SAMPLE_PROFILE, "headline": "Staff backend engineer"}
    save_profile(other, to_document(changed))  # another process saves a new version
    second = profiles.shape("materials", materials_profile)
    assert second is not None and second.version == 2 and second.headline == "Staff backend engineer"
    assert profiles.loads == 3
    rescored = profiles.shape("scoring", scoring_profile)
    assert rescored is not None and rescored.profile_version == 2
