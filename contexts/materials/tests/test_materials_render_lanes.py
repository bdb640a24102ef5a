"""Render lanes: each renderer is created, used and closed on its own lane's thread; two lanes render
two documents at the same time; one lane renders one at a time."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from jobctrl.materials.adapters.rendering.lanes import RenderLanes
from jobctrl.materials.ports import PdfRenderer


class ThreadBoundRenderer:
    """A PdfRenderer that fails unless used on the thread that made it (as sync Playwright does)."""

    made: list[ThreadBoundRenderer] = []

    def __init__(self, barrier: threading.Barrier | None = None) -> None:
        self.thread = threading.get_ident()
        self.barrier = barrier
        self.closed_on: int | None = None
        ThreadBoundRenderer.made.append(self)

    def render(self, html: str) -> bytes:
        assert threading.get_ident() == self.thread, "used off its own thread"
        if self.barrier is not None:
            self.barrier.wait(timeout=10)  # both lanes must be inside render at once
        return b"%PDF-" + html.encode()

    def close(self) -> None:
        self.closed_on = threading.get_ident()


def rendering(html: str) -> Callable[[PdfRenderer], bytes]:
    """The lane work that renders ``html`` on whichever renderer the lane holds."""
    return lambda renderer: renderer.render(html)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    ThreadBoundRenderer.made = []


def test_two_lanes_render_two_documents_at_once_each_on_its_own_thread() -> None:
    barrier = threading.Barrier(2)
    lanes = RenderLanes(lambda: ThreadBoundRenderer(barrier), lanes=2)

    async def both() -> list[bytes]:
        return list(await asyncio.gather(*(lanes.run(rendering(f"doc{n}")) for n in (1, 2))))

    assert sorted(asyncio.run(both())) == [b"%PDF-doc1", b"%PDF-doc2"]
    assert lanes.busiest == 2
    made = ThreadBoundRenderer.made
    assert len(made) == 2 and made[0].thread != made[1].thread
    lanes.close()
    assert [r.closed_on for r in made] == [r.thread for r in made]


def test_one_lane_renders_one_document_at_a_time_on_one_renderer() -> None:
    lanes = RenderLanes(ThreadBoundRenderer, lanes=1)

    async def many() -> list[bytes]:
        return list(await asyncio.gather(*(lanes.run(rendering(f"d{n}")) for n in range(5))))

    assert len(asyncio.run(many())) == 5
    assert lanes.busiest == 1 and len(ThreadBoundRenderer.made) == 1
    lanes.close()
    assert ThreadBoundRenderer.made[0].closed_on == ThreadBoundRenderer.made[0].thread


def test_a_lane_is_handed_back_when_its_work_fails() -> None:
    lanes = RenderLanes(ThreadBoundRenderer, lanes=1)

    def boom(renderer: object) -> bytes:
        raise RuntimeError("render failed")

    async def fail_then_render() -> bytes:
        with pytest.raises(RuntimeError, match="render failed"):
            await lanes.run(boom)
        return await asyncio.wait_for(lanes.run(lambda r: r.render("after")), timeout=10)

    assert asyncio.run(fail_then_render()) == b"%PDF-after"
    lanes.close()


def test_zero_lanes_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        RenderLanes(ThreadBoundRenderer, lanes=0)
