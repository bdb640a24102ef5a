"""``SavedProfiles``: the profile shapes the activities read are kept while the profile stream's
version is unchanged, and a save by another process is seen at the next use (ADR 0376)."""

from __future__ import annotations

import pytest

from jobctrl.kernel.store import EventStore
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.runtime.composition.profiles import (
    SavedProfiles,
    materials_profile,
    scoring_profile,
    to_document,
)

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]


def test_an_unchanged_profile_is_loaded_once_and_a_save_elsewhere_is_seen(
    store: EventStore, other_store: EventStore
) -> None:
    profiles = SavedProfiles(store)
    assert profiles.shape("scoring", scoring_profile) is None  # nothing saved yet
    save_profile(other_store, to_document(dict(SAMPLE_PROFILE)))
    first = profiles.shape("scoring", scoring_profile)
    assert first is not None and first.profile_version == 1 and profiles.loads == 2
    assert profiles.shape("scoring", scoring_profile) is first and profiles.loads == 2
    assert profiles.shape("materials", materials_profile) is not None and profiles.loads == 2

    changed = {**SAMPLE_PROFILE, "headline": "Staff backend engineer"}
    save_profile(other_store, to_document(changed))  # another process saves a new version
    second = profiles.shape("materials", materials_profile)
    assert second is not None and second.version == 2 and second.headline == "Staff backend engineer"
    assert profiles.loads == 3
    rescored = profiles.shape("scoring", scoring_profile)
    assert rescored is not None and rescored.profile_version == 2
