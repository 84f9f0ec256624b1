"""Rules of the course's one catalogue: the scripts and the strategies' sizes."""

import pytest

from tinyagent import (
    HybridChatMemory,
    LlmClient,
    SlidingWindowChatMemory,
    TokenWindowChatMemory,
)
from tinyagent.course import cli
from tinyagent.course.catalogue import (
    SIX_TURNS,
    STRATEGIES,
    make_strategies,
    memory_factories,
    print_memory,
    talk,
)

LLM = LlmClient(offline=True)


def test_the_six_turns_say_the_same_in_both_languages():
    """Both scripts have six turns, and both end by asking for the refund number
    that turn 2 created."""
    assert [len(turns) for turns in SIX_TURNS.values()] == [6, 6]
    assert "refund" in SIX_TURNS["en"][5] and "退款" in SIX_TURNS["zh"][5]


def test_the_chat_command_builds_the_catalogue_sizes():
    """`tinyagent chat --memory window` keeps 6 messages, `tokens` 400 tokens and
    `hybrid` 4 recent messages with a threshold of 8: the sizes notebook 06 compares."""
    window = cli.memory_factories(LLM)["window"]()
    tokens = cli.memory_factories(LLM)["tokens"]()
    hybrid = cli.memory_factories(LLM)["hybrid"]()
    assert isinstance(window, SlidingWindowChatMemory) and window.max_messages == 6
    assert isinstance(tokens, TokenWindowChatMemory) and tokens.max_tokens == 400
    assert isinstance(hybrid, HybridChatMemory)
    assert (hybrid.recent_size, hybrid.summary_threshold) == (4, 8)


def test_compare_labels_carry_the_sizes_it_builds():
    """Each label of the comparison names the sizes its memory was built with."""
    labels = list(make_strategies(LLM))
    assert labels == [s.label for n, s in STRATEGIES.items()
                      if n not in ("structured", "compact")]
    factories = memory_factories(LLM)
    for name, strategy in STRATEGIES.items():
        memory = factories[name]()
        built = "/".join(str(getattr(memory, k)) for k in strategy.sizes)
        assert strategy.label == f"{strategy.title} {built}".strip(), name


@pytest.mark.parametrize("name", [n for n, s in STRATEGIES.items() if s.sizes])
def test_the_playground_starts_at_the_catalogue_sizes(name):
    """A strategy picked in the playground starts with the catalogue's sizes."""
    from tinyagent.course.playground import Playground  # ipywidgets: not at collection

    pg = Playground(LLM, name)
    assert {k: slider.value for k, slider in pg.sliders.items()} == \
        STRATEGIES[name].sizes
    assert all(getattr(pg.memory, k) == v for k, v in STRATEGIES[name].sizes.items())


def test_every_factory_makes_a_fresh_memory():
    """Two calls of a factory give two memories: no run leaks into another."""
    for name, make in memory_factories(LLM).items():
        if name != "none":
            assert make() is not make()


def test_talk_prints_each_turn_and_returns_the_answers(capsys):
    """talk() plays the script in order, prints both sides, returns every answer."""
    from tinyagent import ReActAgent, bitmall_tools

    agent = ReActAgent(LLM, bitmall_tools(), verbose=False)
    answers = talk(agent, SIX_TURNS["en"][:2])
    out = capsys.readouterr().out
    assert len(answers) == 2 and "88231" in answers[0]
    assert out.index("turn 1  user:  Where") < out.index("turn 2  user:  I want")


def test_talk_and_print_memory_speak_the_notebooks_language(capsys):
    """After set_lang("zh"), talk() and print_memory() print Chinese labels."""
    from tinyagent import InMemoryChatMemory, ReActAgent, bitmall_tools
    from tinyagent.lang import set_lang

    memory = InMemoryChatMemory()
    agent = ReActAgent(LLM, bitmall_tools(lang="zh"), memory=memory, verbose=False)
    set_lang("zh")
    try:
        talk(agent, SIX_TURNS["zh"][:1])
        print_memory(memory)
        print_memory(None)
    finally:
        set_lang("en")
    out = capsys.readouterr().out
    assert out.startswith("第 1 轮  用户：") and "客服：" in out
    assert "  1  用户" in out and "（没有记忆）" in out


def test_the_structured_strategy_writes_in_the_notebooks_language():
    """In a Chinese notebook the catalogue's structured memory asks for, heads and
    fences its summary in Chinese; lang= overrides the notebook's setting."""
    from tinyagent import LlmClient
    from tinyagent.lang import set_lang

    llm = LlmClient(offline=True)
    set_lang("zh")
    try:
        chinese = STRATEGIES["structured"].make(llm)
        english = STRATEGIES["structured"].make(llm, lang="en")
    finally:
        set_lang("en")
    assert chinese.summarizer.lang == "zh" and chinese.fence_lang is None
    assert english.summarizer.lang == "en"
    assert STRATEGIES["structured"].make(llm).summarizer.lang == "en"
