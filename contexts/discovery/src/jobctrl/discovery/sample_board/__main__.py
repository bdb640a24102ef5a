"""``python -m jobctrl.discovery.sample_board [--jobs N] [--port P]``: serve the sample job board until
interrupted (``--jobs`` above the sample's 58 adds synthetic employers, see ``scaled_postings``)."""

from __future__ import annotations

import argparse
import time

from jobctrl.discovery.sample_board.board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS, scaled_postings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m jobctrl.discovery.sample_board")
    parser.add_argument("--jobs", type=int, default=len(SAMPLE_POSTINGS), help="postings to serve")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: a free one)")
    args = parser.parse_args(argv)
    try:
        postings = scaled_postings(args.jobs)
    except ValueError as exc:
        parser.error(str(exc))
    with SampleJobBoard(port=args.port, postings=postings) as board:
        print(f"Sample job board with {len(postings)} postings at {board.base_url}")
        for source in board.sources():
            print(f"  {source.source_id:<24} {source.ats_kind}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
