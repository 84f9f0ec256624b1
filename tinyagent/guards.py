"""The agent's guards: when a turn that goes wrong must stop, and what it answers.

Introduced in notebook 00, where the learner writes the two tests below and the
agent (agent.py) runs them after every step. `same_calls`: a step made the same tool
calls as the one before (names and arguments; ids are new every step). The agent
warns the model once, and stops at the second repeat. `no_progress`: the last
three thoughts are pairwise alike, Jaccard similarity of their character sets at
least 0.7, so the model is circling instead of working. Coarse and cheap: it needs
no model call, and a model that really progresses writes thoughts that differ.
`APOLOGIES` are the answers a stopped turn gives, one a `StopReason`
(trace.py), and the notes the agent sends the model instead of a tool result are
below them, each a `Pair` in English and Chinese. Left out: similarity by meaning
(embeddings), and a guard on money spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .lang import Lang, Pair
from .messages import ToolCall
from .trace import StopReason

NO_PROGRESS_JACCARD = 0.7  # thoughts this alike (character sets) count as one thought
# What the agent tells the model in a tool result, in the user's language.
REPEAT_NOTICE = Pair("You already called {call} with the same arguments; answer "
                     "from what you have.",
                     "你已经用同样的参数调用过 {call}，请根据已有结果回答。")
TOO_MANY_CALLS = Pair("{count} more tool calls were not run: at most {limit} a step. "
                      "Ask for them in the next step if they are still needed.",
                      "另有 {count} 个工具调用没有执行：每步最多 {limit} 个。"
                      "如果仍然需要，请在下一步再调用。")
CUT_NOTE = Pair("[cut off: the reply reached its length limit]",
                "［回复达到长度上限，已截断］")
APOLOGIES = {  # a polite answer for each way a turn can stop short of an answer
    StopReason.MAX_STEPS: Pair(
        "Sorry, I could not finish this within {steps}. Could you ask in a simpler "
        "way?", "抱歉，我在 {max_steps} 步内没能完成，请换个简单点的问法。"),
    StopReason.REPEATED_CALL: Pair(
        "Sorry, I kept repeating the same lookup without getting further. Please "
        "rephrase, or ask for a human agent.",
        "抱歉，我一直在重复同一个查询，请换个说法或转人工客服。"),
    StopReason.TOKEN_BUDGET: Pair(
        "Sorry, this conversation is too long for me now ({tokens} tokens, budget "
        "{budget}). Please start a new one.",
        "抱歉，对话太长了（{tokens} 个 token，预算 {budget}），请开启新的对话。"),
    StopReason.NO_PROGRESS: Pair(
        "Sorry, I am going round in circles. Could you give me more details?",
        "抱歉，我在原地打转，能再提供一些细节吗？"),
    StopReason.EMPTY_REPLY: Pair(
        "Sorry, the model sent an empty reply. Please ask again.",
        "抱歉，模型这次的回复是空的，请再问一次。"),
}


def jaccard(a: str, b: str) -> float:
    """Similarity of two texts as sets of characters (coarse, and cheap)."""
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def same_calls(previous: Sequence[ToolCall], calls: Sequence[ToolCall]) -> bool:
    """The repeated-call guard's test: two steps made the same tool calls.

    Names and arguments count, ids do not (they are new every step); the calls of a
    step may come in any order, but one call is not that call twice.
    """
    return (sorted(call.signature() for call in previous)
            == sorted(call.signature() for call in calls))


def no_progress(thoughts: Sequence[str]) -> bool:
    """The no-progress guard's test: the last three non-blank thoughts are pairwise
    alike (jaccard >= NO_PROGRESS_JACCARD). Fewer than three: too early to tell.

    Every pair, not only neighbours: thoughts that drift a little each step are
    still moving somewhere.
    """
    last = [thought.strip() for thought in thoughts if thought.strip()][-3:]
    return len(last) == 3 and all(jaccard(a, b) >= NO_PROGRESS_JACCARD
                                  for a, b in combinations(last, 2))


def apology(reason: StopReason, lang: Lang, tokens: int, max_steps: int,
            max_tokens: int) -> str:
    """The polite answer for a turn a guard stopped, in the question's language."""
    steps = f"{max_steps} step" + "s" * (max_steps != 1)
    return APOLOGIES[reason].say(lang).format(steps=steps, max_steps=max_steps,
                                              tokens=tokens, budget=max_tokens)
