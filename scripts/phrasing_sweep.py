"""What the summary memories keep of statements nobody planted, per kind.

    python scripts/phrasing_sweep.py               # the tuning set, both languages
    python scripts/phrasing_sweep.py --held-apart  # the set kept out of tuning
    python scripts/phrasing_sweep.py --late        # its second batch
    python scripts/phrasing_sweep.py --misses      # list what was lost, too

The sets are tests/phrasings/: each conversation opens with one statement of each
kind, then 30 turns of filler; a statement survived when its key word is still in the
summary, on a line of its kind's label (tests/phrasings/play.py). Offline model.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from phrasings import KINDS, held_apart, held_apart_late, tuning  # noqa: E402
from phrasings.play import sweep  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-apart", action="store_true",
                        help="the held-apart set instead of the tuning set")
    parser.add_argument("--late", action="store_true",
                        help="the held-apart set's second batch")
    parser.add_argument("--misses", action="store_true", help="list what was lost")
    args = parser.parse_args()
    book = held_apart_late if args.late else held_apart if args.held_apart else tuning
    phrasings = book.PHRASINGS
    for lang in ("en", "zh"):
        found = sweep(phrasings, lang)
        print(f"{book.__name__.split('.')[-1]} set, {lang}: "
              "statements kept / said")
        print(f"{'memory':<16}" + "".join(f"{k:>9}" for k in KINDS) + f"{'all':>9}")
        for name, per_kind in found.items():
            cells = [f"{sum(ok for _, ok in v)}/{len(v)}" for v in per_kind.values()]
            kept = sum(ok for v in per_kind.values() for _, ok in v)
            said = sum(len(v) for v in per_kind.values())
            print(f"{name:<16}" + "".join(f"{c:>9}" for c in cells)
                  + f"{kept:>5}/{said}")
            if args.misses:
                for kind, v in per_kind.items():
                    for text, ok in v:
                        if not ok:
                            print(f"    lost {kind}: {text}")
        print()


if __name__ == "__main__":
    main()
