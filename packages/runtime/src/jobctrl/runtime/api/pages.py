"""The dashboard's pages and their shared assets, served as the files in ``static/`` are (ADR 0277,
0315): ``/`` (the dashboard), ``/review``, ``/contacts`` and ``/outreach``, and the one stylesheet and
one script the pages link.  None is in the OpenAPI document; every one is a public path of the guard
(``guard.PUBLIC_PATHS``): a page holds no data, and what it reads needs the token, which the script
sends as a header (ADR 0100)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import Response

STATIC: Final = Path(__file__).with_name("static")

#: Path -> (file in ``static/``, media type).
FILES: Final[dict[str, tuple[str, str]]] = {
    "/": ("dashboard.html", "text/html"),
    "/review": ("review.html", "text/html"),
    "/contacts": ("contacts.html", "text/html"),
    "/outreach": ("outreach.html", "text/html"),
    "/static/jobctrl.css": ("jobctrl.css", "text/css"),
    "/static/jobctrl.js": ("jobctrl.js", "text/javascript"),
}
PATHS: Final[frozenset[str]] = frozenset(FILES)

router = APIRouter(include_in_schema=False)


def _serve(name: str, media_type: str) -> Callable[[], Response]:
    def serve() -> Response:
        return Response((STATIC / name).read_text(encoding="utf-8"), media_type=media_type)

    serve.__name__ = "static_" + name.replace(".", "_")
    return serve


for _path, (_name, _media_type) in FILES.items():
    router.add_api_route(_path, _serve(_name, _media_type), methods=["GET"], response_class=Response)
