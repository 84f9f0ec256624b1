"""The language switch reaches the memories: after set_lang("zh") a memory built
without `lang` fences its summary in Chinese and explains a bad size in Chinese;
`lang=` still decides for one object."""

import pytest
from fakes import FakeLlm, chat, fed
from zh_text import stray_english

from tinyagent import SYSTEM_PROMPT_ZH, ReActAgent, bitmall_tools
from tinyagent.lang import set_lang
from tinyagent.memory import (
    PROMPT,
    PROMPT_ZH,
    SUMMARY_HEADER,
    SUMMARY_HEADER_ZH,
    HybridChatMemory,
    SlidingWindowChatMemory,
    Summarizer,
    SummaryChatMemory,
    TokenWindowChatMemory,
)
from tinyagent.production import CompactChatMemory, IncrementalSummaryChatMemory


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_lang("en")


def test_a_summary_memory_follows_the_package_language():
    """set_lang("zh"), then SummaryChatMemory(llm): a Chinese fence and a Chinese
    summarizer; lang="en" on the object overrides the setting."""
    set_lang("zh")
    chinese = fed(SummaryChatMemory(FakeLlm(), 4, 2), chat(3))
    english = fed(SummaryChatMemory(FakeLlm(), 4, 2, lang="en"), chat(3))
    assert chinese.messages()[0].content.startswith(SUMMARY_HEADER_ZH)
    assert english.messages()[0].content.startswith(SUMMARY_HEADER)
    assert Summarizer(FakeLlm()).language(None, []) == "zh"


def test_the_language_is_the_setting_at_the_time_of_the_call():
    """lang=None means the package's language when the memory speaks, not when it
    was built: a memory built before set_lang("zh") writes its summary in Chinese
    after it, as the agent beside it does (the package's one rule, lang.py)."""
    memory = SummaryChatMemory(FakeLlm(), 4, 2)
    agent = ReActAgent(FakeLlm(), bitmall_tools(), verbose=False)
    set_lang("zh")
    fed(memory, chat(3))
    assert memory.messages()[0].content.startswith(SUMMARY_HEADER_ZH)
    assert memory.summarizer.request(None, chat(1))[0].content == PROMPT_ZH
    assert agent.system_prompt == SYSTEM_PROMPT_ZH
    set_lang("en")
    assert memory.summarizer.request(None, chat(1))[0].content == PROMPT


BAD = [
    (lambda: SlidingWindowChatMemory(1), "max_messages 至少为 2", "max_messages"),
    (lambda: SlidingWindowChatMemory.from_rounds(0), "rounds 至少为 1", "rounds"),
    (lambda: SlidingWindowChatMemory("6"), "max_messages 必须是整数", "max_messages"),
    (lambda: TokenWindowChatMemory(0), "max_tokens 至少为 1", "max_tokens"),
    (lambda: SummaryChatMemory(FakeLlm(), 2, 2), "threshold 至少为 3", "threshold"),
    (lambda: SummaryChatMemory(FakeLlm(), 8, 1), "keep_recent 至少为 2", "keep_recent"),
    (lambda: SummaryChatMemory(FakeLlm(), 8, 8), "keep_recent 必须小于 threshold",
     "keep_recent"),
    (lambda: SummaryChatMemory(FakeLlm(), max_summary_tokens=10),
     "max_summary_tokens 至少为 50", "max_summary_tokens"),
    (lambda: SummaryChatMemory(FakeLlm(), threshold_tokens=10),
     "threshold_tokens 至少为 100", "threshold_tokens"),
    (lambda: HybridChatMemory(FakeLlm(), 6, 6),
     "recent_size 必须小于 summary_threshold", "recent_size"),
    (lambda: CompactChatMemory(FakeLlm(), 500, 500), "high_tokens 必须大于 low_tokens",
     "high_tokens"),
    (lambda: CompactChatMemory(FakeLlm(), 900, 50), "low_tokens 至少为 100",
     "low_tokens"),
    (lambda: IncrementalSummaryChatMemory(FakeLlm(), 0), "keep_recent_turns 至少为 1",
     "keep_recent_turns"),
    (lambda: IncrementalSummaryChatMemory(FakeLlm(), batch_turns=0),
     "batch_turns 至少为 1", "batch_turns"),
    (lambda: IncrementalSummaryChatMemory(FakeLlm(), max_summary_chars=10),
     "max_summary_chars 至少为 200", "max_summary_chars"),
]


PARAMETERS = {"rounds", "threshold"}


@pytest.mark.parametrize("build,start,name", BAD)
def test_after_set_lang_zh_every_size_error_is_chinese(build, start, name):
    """Each size or rule error of the memories has a Chinese twin: it names the
    parameter and its value, and holds no English sentence."""
    set_lang("zh")
    with pytest.raises(ValueError) as error:
        build()
    message = str(error.value)
    assert message.startswith(start) and name in message
    # Parameter names are code, even when they are one plain word.
    assert stray_english(message, allowed=PARAMETERS) == [], message


def test_an_unknown_language_is_refused_in_the_package_language():
    """Summarizer(lang="fr") after set_lang("zh"): the refusal is Chinese and
    names the value."""
    set_lang("zh")
    with pytest.raises(ValueError, match="^lang 只能是 .*'fr'"):
        Summarizer(FakeLlm(), lang="fr")


def test_a_window_error_in_chinese_reads_like_the_english_one():
    """max_messages=1 in Chinese: the rule, the reason and the value given."""
    set_lang("zh")
    with pytest.raises(ValueError, match=r"^max_messages 至少为 2（一轮对话需要一条"
                                         r"用户消息和一条助手消息），当前为 1$"):
        SlidingWindowChatMemory(max_messages=1)


def test_add_of_a_wrong_type_explains_in_chinese():
    """add() of a plain string, in Chinese: names the type and the fix."""
    set_lang("zh")
    with pytest.raises(TypeError, match="add\\(\\) 只接受 ChatMessage，收到的是 str"):
        SlidingWindowChatMemory(4).add("hello")
