"""Builds the configured provider (composition roots call this; nothing is built at import time)."""

from __future__ import annotations

from jobctrl.llm.instructor_provider import InstructorProvider
from jobctrl.llm.offline import OfflineProvider
from jobctrl.llm.port import SpendRecorder
from jobctrl.llm.settings import LlmSettings


def build_provider(
    settings: LlmSettings, spend: SpendRecorder | None = None
) -> OfflineProvider | InstructorProvider:
    """The offline provider is returned bare: the caller registers its contexts' handlers on it."""
    if settings.provider == "offline":
        return OfflineProvider(spend, model=settings.model)  # priced by the recorder's defaults
    return InstructorProvider(settings, spend)
