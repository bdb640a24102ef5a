"""Just enough of a PDF text reader for Chromium (Skia) output, so scenarios can check what a PDF says.

Skia writes uncompressed object dictionaries, Flate-compressed streams, Type0 fonts with a ToUnicode
CMap, and text as ``<hex> Tj`` / ``[...] TJ`` under ``/Fn size Tf``.  That is all this reads.
"""

from __future__ import annotations

import re
import zlib

_OBJ = re.compile(rb"(\d+) 0 obj\s*(.*?)endobj", re.S)
_TOKENS = re.compile(rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj|\[(.*?)\]\s*TJ|(T[dD*]|Tm|ET)", re.S)


def _objects(pdf: bytes) -> dict[int, tuple[bytes, bytes | None]]:
    objects: dict[int, tuple[bytes, bytes | None]] = {}
    for number, body in _OBJ.findall(pdf):
        head, marker, rest = body.partition(b"stream")
        data = None
        if marker:
            raw = rest.lstrip(b"\r\n").rsplit(b"endstream", 1)[0]
            data = zlib.decompress(raw) if b"/FlateDecode" in head else raw
        objects[int(number)] = (head, data)
    return objects


def _cmap(data: bytes) -> dict[int, str]:
    mapping: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            mapping[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            start = int(dst, 16)
            for offset, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                mapping[code] = chr(start + offset)
    return mapping


def pdf_text(pdf: bytes) -> str:
    objects = _objects(pdf)
    cmaps: dict[int, dict[int, str]] = {}
    for number, (head, _) in objects.items():
        found = re.search(rb"/ToUnicode (\d+) 0 R", head)
        if found and objects[int(found.group(1))][1] is not None:
            cmaps[number] = _cmap(objects[int(found.group(1))][1] or b"")
    out: list[str] = []
    for head, _ in list(objects.values()):
        if b"/Type /Page\n" not in head and not head.startswith(b"<</Type /Page\n"):
            continue
        fonts = {n.decode(): int(o) for n, o in re.findall(rb"/(\w+) (\d+) 0 R", _font_dict(head))}
        for content in re.findall(rb"/Contents (\d+) 0 R", head):
            font: dict[int, str] = {}
            for name, hexed, array, move in _TOKENS.findall(objects[int(content)][1] or b""):
                if name:
                    font = cmaps.get(fonts.get(name.decode(), -1), {})
                elif move in (b"Tm", b"ET", b"T*"):  # a new line or block; Td also moves inside a word
                    out.append(" ")
                for chunk in [hexed] if hexed else re.findall(rb"<([0-9A-Fa-f]*)>", array):
                    codes = [int(chunk[i : i + 4], 16) for i in range(0, len(chunk), 4)]
                    out.append("".join(font.get(c, "?") for c in codes))
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _font_dict(head: bytes) -> bytes:
    found = re.search(rb"/Font <<(.*?)>>", head, re.S)
    return found.group(1) if found else b""
