"""Checkers for notebook 09 (production memory II): freshness and restarts.

`09.apply_if_current(state, planned_version, batch_size, text)` applies a background
summary only if the summary has not changed since the batch was planned: named
cases, then 300 drawn states (up to 100 messages covered, version up to 80, batches
up to 60 messages) planned at the current version or another one.
`09.restore(snapshot, transcript)` rebuilds a memory after a restart from the newest
snapshot and the messages after it, without a model call: named cases, then 100
drawn transcripts of up to 140 messages with snapshots covering any number of them
(or none). Either language's fence passes (_fences.py).
Left out: threads and the SQLite store (the notebook runs the real ones).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ...lang import say
from ...memory.fence import summary_message
from ...messages import ChatMessage, Role
from ...storage import SummaryState
from . import Case, exercise, expect
from ._dialogs import dialog, fresh_list, roles
from ._drawn import drawn, size
from ._fences import fence_of, show

APPLY_DRAWS, MOST_COVERED, MOST_VERSION, MOST_BATCH = 300, 100, 80, 60
RESTORE_DRAWS, MOST_MESSAGES = 100, 140


def reference_apply(state: SummaryState, planned_version: int, batch_size: int,
                    text: str) -> SummaryState:
    """The exercise's rule: stale unless planned at the current version."""
    if planned_version != state.version:
        return state
    return SummaryState(text, state.covered_up_to + batch_size,
                        state.compression_count + 1, state.version + 1)


def _drawn_apply(apply_if_current: Any, rng: random.Random) -> bool:
    version = size(rng, MOST_VERSION, 0)
    state = SummaryState(say(f"- summary v{version}", f"- 第 {version} 版摘要")
                         if version else None, size(rng, MOST_COVERED, 0),
                         size(rng, MOST_VERSION, 0), version)
    planned = rng.choice((version, version, version - 1, version + 1,
                          rng.randint(0, MOST_VERSION)))
    batch = size(rng, MOST_BATCH)
    return _applied(apply_if_current, state, planned, batch,
                    reference_apply(state, planned, batch, say("- new summary",
                                                                "- 新摘要")))


def _applied(apply_if_current: Any, state: SummaryState, planned: int, size: int,
             expected: SummaryState) -> bool:
    got = apply_if_current(state, planned, size, say("- new summary", "- 新摘要"))
    return expect(got, expected, say(f"with {state}, a batch of {size} messages "
                                     f"planned at version {planned}",
                                     f"输入为 {state}，一批 {size} 条消息，"
                                     f"规划时是第 {planned} 版"))


@exercise("09.apply_if_current")
def _apply_cases(apply_if_current: Any) -> Iterator[Case]:
    old, text = say(("- old summary", "- new summary"), ("- 旧摘要", "- 新摘要"))
    now = SummaryState(old, covered_up_to=6, compression_count=2, version=2)
    new = SummaryState(text, covered_up_to=10, compression_count=3, version=3)
    yield (say("a batch planned at the current version is applied",
               "按当前版本规划的一批，照常应用"),
           lambda: _applied(apply_if_current, now, 2, 4, new),
           say("an applied batch moves every count on: what is covered, how many "
               "compressions, which version", "应用一批之后，每个计数都往前走：覆盖到"
               "哪里、压缩了几次、第几版"))
    yield (say("a batch planned before another compression is stale: nothing changes",
               "在另一次压缩之前规划的一批已经过期：什么都不变"),
           lambda: _applied(apply_if_current, now, 1, 4, now),
           say("a summary planned on an older version would overwrite newer work",
               "按旧版本规划的摘要，会覆盖掉更新的成果"))
    yield (say("a batch planned at a newer version is stale too",
               "按更新的版本规划的一批，也算过期"),
           lambda: _applied(apply_if_current, now, 3, 4, now),
           say("any version other than the current one is stale, newer ones too",
               "只要不是当前版本就过期，更新的版本也一样"))
    yield (say("the first compression: from version 0 and nothing covered",
               "第一次压缩：从第 0 版开始，还没有覆盖任何消息"),
           lambda: _applied(apply_if_current, SummaryState(), 0, 6,
                            SummaryState(text, 6, 1, 1)),
           say("before any summary the version is 0; the first summary makes it 1",
               "还没有摘要时版本是 0；第一份摘要让它变成 1"))
    yield (say("the counts follow the batch, not fixed numbers",
               "计数跟着这一批走，不是固定的数字"),
           lambda: _applied(apply_if_current, replace(now, version=7), 7, 2,
                            SummaryState(text, 8, 3, 8)),
           say("batches come in any size: the counts move by this batch's",
               "一批可以是任意大小：计数按这一批的大小往前走"))
    yield (say(f"{APPLY_DRAWS} drawn states and batches: applied only at the current "
               "version, every count moved by the batch",
               f"{APPLY_DRAWS} 个抽取的状态和批次：只在当前版本时应用，每个计数都按"
               "这一批往前走"),
           lambda: drawn("09.apply_if_current", APPLY_DRAWS,
                         lambda rng: _drawn_apply(apply_if_current, rng)),
           say("compare the planned version with the state's: equal applies the "
               "batch, anything else leaves the state as it is",
               "把规划时的版本和状态的版本比较：相等才应用，否则状态原样不动"))


def _restored(restore: Any, covered: int, sizes: str = "tptpp",
              seed: int | None = None) -> bool:
    transcript = dialog(sizes, covered + 1 if seed is None else seed)
    return _restores(restore, transcript, covered if covered or seed is None
                     else None)


def _restores(restore: Any, transcript: list[ChatMessage],
              covered: int | None) -> bool:
    """restore(snapshot covering `covered` messages, or None) against the rule."""
    covered = covered or 0
    text = say(f"- summary of messages 1-{covered}", f"- 第 1-{covered} 条消息的摘要")
    snapshot = SummaryState(text, covered, 1, 1) if covered else None
    expected = ([summary_message(snapshot.text)] if snapshot else []) + \
        transcript[covered:]
    given = list(transcript)
    got = restore(snapshot, given)
    fresh_list(got, given, say("the result", "结果"))
    if snapshot and got:  # the Chinese edition's fence is as good as the English one
        expected[0] = summary_message(snapshot.text, fence_of(got[0]))
    expect(roles(given), roles(transcript), say("the transcript afterwards",
                                                "调用之后的 transcript"), str)
    return expect(roles(got), roles(expected), say(
        f"with a snapshot covering {covered} of {len(transcript)} messages",
        f"快照覆盖了 {len(transcript)} 条消息中的 {covered} 条"), str) \
        and expect(got, expected, say("the same roles, other messages",
                                      "角色都对，但消息不对"), show)


def _drawn_restore(restore: Any, rng: random.Random) -> bool:
    shape = "".join(rng.choice("pt") for _ in range(MOST_MESSAGES // 3))
    transcript = dialog(shape, rng.randint(1, 10**6))[:size(rng, MOST_MESSAGES, 0)]
    covered = 0 if rng.random() < 0.1 else rng.randint(0, len(transcript))
    return _restores(restore, transcript, covered)


@exercise("09.restore")
def _restore_cases(restore: Any) -> Iterator[Case]:
    tail = say("the snapshot stands for the messages it covers; those after it come "
               "back word for word", "快照代表它覆盖的那些消息；它之后的消息原样回来")
    yield (say("no snapshot yet: every message, no summary",
               "还没有快照：全部消息，没有摘要"),
           lambda: _restored(restore, 0),
           say("if snapshot is None: return the transcript",
               "snapshot 为 None 时，返回 transcript"))
    yield (say("a snapshot of 4 messages: the summary, then messages 5 onwards",
               "快照覆盖 4 条消息：先是摘要，再是第 5 条起的消息"),
           lambda: _restored(restore, 4), tail)
    yield (say("another cut: a snapshot of 10 messages",
               "换个切点：快照覆盖 10 条消息"),
           lambda: _restored(restore, 10), tail)
    yield (say("the summary comes back fenced, as a system message",
               "摘要带着围栏回来，是一条 system 消息"),
           lambda: expect(restore(SummaryState("- x", 2, 1, 1), dialog("pp"))[0].role,
                          Role.SYSTEM,
                          say("the first message's role", "第一条消息的角色")),
           say("a summary comes back the way memory always shows it: fenced, as a "
               "system message", "摘要回来时和记忆平时给出的一样：带围栏，"
               "是一条 system 消息"))
    yield (say("a snapshot covering everything: the summary alone",
               "快照覆盖了全部消息：只剩摘要"),
           lambda: _restored(restore, 6, "ppp"), tail)
    yield (say(f"{RESTORE_DRAWS} drawn transcripts of up to {MOST_MESSAGES} messages, "
               "snapshots covering any number of them",
               f"{RESTORE_DRAWS} 段抽取的记录（至多 {MOST_MESSAGES} 条消息），快照覆盖"
               "任意条数"),
           lambda: drawn("09.restore", RESTORE_DRAWS,
                         lambda rng: _drawn_restore(restore, rng)), tail)
