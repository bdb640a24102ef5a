"""``python -m jobctrl.discovery.sample_board``: serve the sample job board until interrupted."""

from __future__ import annotations

import time

from jobctrl.discovery.sample_board.board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS


def main() -> None:
    with SampleJobBoard() as board:
        print(f"Sample job board with {len(SAMPLE_POSTINGS)} postings at {board.base_url}")
        for source in board.sources():
            print(f"  {source.source_id:<24} {source.ats_kind}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
