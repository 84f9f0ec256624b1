"""The 50-turn evaluation's figures on many dialogs, not only the default one.

    python scripts/seed_sweep.py                 # seeds 0-19, 50 turns (~35 s)
    python scripts/seed_sweep.py --seeds 0-39 --turns 60
    python scripts/seed_sweep.py --check         # exit 1 if a target is missed

Each seed writes another planted dialog (another order, other fillers in another
order, see notebook 06). For each, the summary and hybrid memories are scored against
the unbounded in-memory buffer: recall, peak memory and tokens sent (prompts plus
summarizer calls) as a share of in-memory's. The last rows give each column's min
and max, the figures a claim about "any dialog" must hold over. `--check` holds them
to the targets: both memories recall 3/3, and the hybrid's peak memory is at most
20 % and its tokens sent at most 60 % of in-memory's, on every seed (its summary
keeps the customer's own words too, notebook 06).
"""

from __future__ import annotations

import argparse
import os
import sys

from tinyagent.course.catalogue import make_strategies
from tinyagent.course.evaluation import evaluate, planted_dialog
from tinyagent.llm import LlmClient

# summary 10/4 and hybrid 4/8: recall, peak memory, tokens sent
COLUMNS = ["seed", "sum recall", "hyb recall", "sum memory", "hyb memory", "sum sent",
           "hyb sent"]


def seeds(text: str) -> range:
    """"0-19" -> range(0, 20); "7" -> range(7, 8)."""
    first, _, last = text.partition("-")
    try:
        return range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seeds must be N or N-M, like 0-19 (got {text!r})") from None


def sweep_row(llm: LlmClient, seed: int, turns: int) -> list[float]:
    """[seed, recalls, then peak memory and tokens sent in % of in-memory's]."""
    result = evaluate(llm, planted_dialog(turns=turns, seed=seed),
                      make_strategies(llm, ["inmemory", "summary", "hybrid"]))
    full, summary, hybrid = result["in-memory"], result["summary 10/4"], \
        result["hybrid 4/8"]
    return [seed, sum(summary.recalled), sum(hybrid.recalled),
            *(100 * s.peak_memory_tokens / full.peak_memory_tokens
              for s in (summary, hybrid)),
            *(100 * s.total_tokens / full.total_tokens for s in (summary, hybrid))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=seeds, default=range(20))
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 if a seed misses a target")
    args = parser.parse_args()
    os.environ.pop("TINYAGENT_API_KEY", None)  # these figures are the offline model's
    llm = LlmClient(offline=True)
    print(f"{args.turns} turns; summary 10/4 and hybrid 4/8; peak memory and tokens "
          "sent in % of in-memory's")
    print("  ".join(f"{c:>10}" for c in COLUMNS))
    rows = []
    for seed in args.seeds:
        rows.append(sweep_row(llm, seed, args.turns))
        print(line(rows[-1]), flush=True)
    for name, pick in (("min", min), ("max", max)):
        print(line([name, *(pick(r[k] for r in rows) for k in range(1, 7))]))
    missed = [r[0] for r in rows if min(r[1:3]) < 3 or r[4] > 20 or r[6] > 60]
    if args.check and missed:
        sys.exit(f"targets missed on seeds {missed}: recall 3/3, hybrid peak memory "
                 "<= 20 % and tokens sent <= 60 % of in-memory's")


def line(row: list) -> str:
    cells = [f"{row[0]:>10}"] + [f"{v:>8}/3" for v in row[1:3]]
    return "  ".join(cells + [f"{v:>9.1f}%" for v in row[3:]])


if __name__ == "__main__":
    main()
