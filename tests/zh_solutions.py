"""The official solutions as the Chinese notebooks write them.

Where the Chinese edition's code differs from notebooks/solutions (English), here is
the Chinese form: notebook 05's merge step sends the Chinese prompt and labels
(`PROMPT_ZH`, "之前的摘要：", "新消息：", "无"), notebook 08's fence and 09's restore
use the Chinese markers. Every other exercise's official code is the same in both
editions.
"""

from test_exercise_catalogue import OFFICIAL, official

from tinyagent import ChatMessage
from tinyagent.memory.entities import find_ids, keep_ids
from tinyagent.memory.fence import SUMMARY_FOOTER_ZH, SUMMARY_HEADER_ZH, summary_message
from tinyagent.memory.summarizer import PROMPT_ZH, fallback_summary
from tinyagent.memory.transcript import render


def merge_summary(llm, previous, overflow):
    """新摘要：`previous` 与溢出的 `overflow` 消息合并。"""
    text = f"之前的摘要：\n{previous or '无'}\n\n新消息：\n{render(overflow)}"
    try:
        summary = llm.chat([ChatMessage.system(PROMPT_ZH), ChatMessage.user(text)])
        summary = summary.content.strip()
    except Exception:  # 摘要失败也不能丢掉对话
        summary = ""
    if not summary:
        summary = fallback_summary(previous, overflow, lang="zh")
    return keep_ids(summary, find_ids(text))


def fence(summary):
    """把摘要变成围起来的系统消息；伪造的标记变成普通文字。"""
    while SUMMARY_HEADER_ZH in summary or SUMMARY_FOOTER_ZH in summary:
        for marker in (SUMMARY_HEADER_ZH, SUMMARY_FOOTER_ZH):
            summary = summary.replace(marker, marker.strip("[]"))
    return summary_message(summary, "zh")


def restore(snapshot, transcript):
    """重启之后记忆里装着的东西。"""
    if snapshot is None:
        return list(transcript)
    return [summary_message(snapshot.text, "zh"), *transcript[snapshot.covered_up_to:]]


CHINESE = {"05.merge_step": merge_summary, "08.fence": fence, "09.restore": restore}


def chinese_official(name: str):
    """The code a Chinese notebook's learner is shown as the answer to `name`."""
    return CHINESE.get(name) or official(*OFFICIAL[name])
