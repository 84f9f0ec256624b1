"""Ids and the customer's own words, recalled by every memory over many dialogs.

    python scripts/recall_sweep.py                  # seeds 0-19, 50 turns (~2-4 min)
    python scripts/recall_sweep.py --lang zh --seeds 0-4

Each seed writes another planted dialog (notebook 06): three ids (order, tracking,
refund) and four things the customer said in their own words (the reason for the
refund, a delivery time, a contact channel, a budget), all asked for back near the
end. Every strategy plays it, the structured memory of notebook 08 and a hybrid
memory with a useless summarizer too; the table gives, per strategy, the min and max
over the seeds of ids and facts recalled. The entity guard restores ids whatever a
summary says, so only the facts column tells a good summarizer from a useless one.
"""

from __future__ import annotations

import os

from seed_sweep import dialog_parser  # --seeds and --turns, as seed_sweep reads them

from tinyagent.course.baselines import useless_strategy
from tinyagent.course.catalogue import NAMES, make_strategies
from tinyagent.course.evaluation import evaluate, planted_dialog
from tinyagent.llm import LlmClient


def main() -> None:
    parser = dialog_parser(__doc__)
    parser.add_argument("--lang", choices=["en", "zh"], default="en",
                        help="the English (default) or the Chinese dialogs")
    args = parser.parse_args()
    os.environ.pop("TINYAGENT_API_KEY", None)  # these figures are the offline model's
    llm = LlmClient(offline=True)
    strategies = {**make_strategies(llm, [*NAMES, "structured"]), **useless_strategy()}
    ids: dict[str, list[int]] = {name: [] for name in strategies}
    facts: dict[str, list[int]] = {name: [] for name in strategies}
    probes = (0, 0)
    for seed in args.seeds:
        result = evaluate(llm, planted_dialog(args.turns, seed, args.lang), strategies)
        probes = (len(result.dialog.probes), len(result.dialog.fact_probes))
        for s in result.scores:
            ids[s.strategy].append(sum(s.recalled))
            facts[s.strategy].append(sum(s.facts_recalled))
    print(f"{args.turns} turns, seeds {args.seeds.start}-{args.seeds.stop - 1}, "
          f"{args.lang}: recalled, min-max over the seeds")
    print(f"{'strategy':<15} {'ids':>9} {'facts':>9}")
    for name in strategies:
        print(f"{name:<15} {min(ids[name])}-{max(ids[name])}/{probes[0]:<5} "
              f"{min(facts[name])}-{max(facts[name])}/{probes[1]}")


if __name__ == "__main__":
    main()
