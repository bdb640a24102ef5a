"""``GET/PATCH /v1/settings`` (orchestration settings) and ``GET/PATCH /v1/profile`` (candidate profile).

Invalid settings are a 422 and nothing is saved (``SettingsStore.update`` validates the merged document
before it writes).  A ``null`` value unsets a saved key: it reads from the configuration, else the
default, again (ADR 0272); an unknown key, set or unset, is a 422 and nothing is saved.  A profile
save that normalizes to what is already saved writes nothing.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.concurrency import run_in_threadpool

from jobctrl.orchestration import (
    InvalidProfile,
    InvalidSettings,
    SaveOutcome,
    SettingsStore,
    load_profile,
    save_profile,
)
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import (
    ProfilePatch,
    ProfileSaved,
    ProfileView,
    SettingsPatch,
    SettingsView,
    error_responses,
)
from jobctrl.runtime.api.services import Services, services
from jobctrl.runtime.api.workflow_control import TemporalUnavailable
from jobctrl.runtime.outbox import drain_profile_outbox
from jobctrl.runtime.settings import config_seed

router = APIRouter(prefix="/v1", tags=["settings"])
log = logging.getLogger(__name__)
INVALID: dict[int | str, dict[str, Any]] = error_responses(422)


def _settings(svc: Services) -> SettingsStore:
    """Keys never saved read as the configuration seeds them (``config.toml``, env), per key."""
    return SettingsStore(svc.db, clock=svc.clock, seed=config_seed)


@router.get("/settings", response_model=SettingsView)
def get_settings(svc: Annotated[Services, Depends(services)]) -> SettingsView:
    return SettingsView.model_validate(_settings(svc).load().model_dump())


@router.patch("/settings", response_model=SettingsView, responses=INVALID)
def patch_settings(body: SettingsPatch, svc: Annotated[Services, Depends(services)]) -> SettingsView:
    store = _settings(svc)
    patch = body.model_dump(exclude_unset=True)
    if not patch:
        return SettingsView.model_validate(store.load().model_dump())
    unset = [key for key, value in patch.items() if value is None]
    try:
        saved = store.update({k: v for k, v in patch.items() if v is not None}, unset=unset)
    except InvalidSettings as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return SettingsView.model_validate(saved.model_dump())


def _view(svc: Services) -> ProfileView:
    profile = load_profile(svc.store, clock=svc.clock, tenant_id=svc.tenant_id)
    return ProfileView(profile_version=profile.profile_version, content=profile.content)


@router.get("/profile", response_model=ProfileView)
def get_profile(svc: Annotated[Services, Depends(services)]) -> ProfileView:
    return _view(svc)


@router.patch("/profile", response_model=ProfileSaved, responses=INVALID)
async def patch_profile(body: ProfilePatch, svc: Annotated[Services, Depends(services)]) -> ProfileSaved:
    changes = body.model_dump(exclude_unset=True, by_alias=True)

    def save() -> SaveOutcome:
        content: dict[str, Any] = dict(load_profile(svc.store, tenant_id=svc.tenant_id).content)
        for section, value in changes.items():
            if value is None:
                content.pop(section, None)
            else:
                content[section] = value
        return save_profile(svc.store, content, clock=svc.clock, tenant_id=svc.tenant_id)

    try:
        outcome = await run_in_threadpool(save)
    except InvalidProfile as exc:
        raise ApiError(422, exc.code, exc.message, exc.problems) from None
    await _drain(svc)
    view = await run_in_threadpool(_view, svc)
    return ProfileSaved(profile_version=view.profile_version, content=view.content, outcome=outcome.value)


async def _drain(svc: Services) -> None:
    """Every save drains the outbox (ADR 0074).  The save is already committed: without Temporal the
    intent simply waits for the next drain (the next save or the worker's start-up)."""
    if svc.control is None:
        return
    task_queue = (await run_in_threadpool(SettingsStore(svc.db, clock=svc.clock).load)).task_queue
    try:
        await drain_profile_outbox(
            svc.store, svc.control, task_queue=task_queue, clock=svc.clock, tenant_id=svc.tenant_id
        )
    except TemporalUnavailable:
        log.warning("profile outbox not drained: Temporal is unavailable; the next drain delivers it")
