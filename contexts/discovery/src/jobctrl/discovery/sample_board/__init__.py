"""A local sample job board (Greenhouse, Lever, Ashby JSON, JSON-LD career pages) for tests and the demo."""

from jobctrl.discovery.sample_board.board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS
from jobctrl.discovery.sample_board.server import LocalHttpServer, Route

__all__ = ["SAMPLE_POSTINGS", "LocalHttpServer", "Route", "SampleJobBoard"]
