"""The six-turn demo of notebook 05, in English and Chinese, through each memory.

Turn 2 applies for a refund (RF20260701001); turn 6 asks for that number again. With
the full history the agent reads it back; a 3-round window has forgotten it and says
so; summary and hybrid memories answer it from the summary, the refund turn itself
no longer verbatim. The offline model plays the clerk, so every run is the same.
"""

from functools import cache

import pytest

from tinyagent import (
    HybridChatMemory,
    InMemoryChatMemory,
    LlmClient,
    ReActAgent,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    bitmall_tools,
    count_message_tokens,
)
from tinyagent.course.catalogue import SIX_TURNS, print_memory
from tinyagent.memory import SUMMARY_FOOTER, SUMMARY_HEADER
from tinyagent.messages import Role

REFUND = "RF20260701001"
LANGS = ["en", "zh"]
MEMORIES = {
    "inmemory": lambda llm: InMemoryChatMemory(),
    "window": lambda llm: SlidingWindowChatMemory.from_rounds(3),
    "summary": lambda llm: SummaryChatMemory(llm, threshold=10, keep_recent=4),
    "hybrid": lambda llm: HybridChatMemory(llm, recent_size=6, summary_threshold=10),
}
SUMMARIZING = ["summary", "hybrid"]
# What the offline clerk says when the number is not in what it was sent.
CANNOT_FIND = {"en": "I can't find a refund number", "zh": "没找到退款编号"}


@cache
def play(lang, name):
    """The six turns through memory `name`: (memory, traces, answers), played once."""
    llm = LlmClient(offline=True)
    memory = MEMORIES[name](llm)
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    traces, answers = [], []
    for text in SIX_TURNS[lang]:
        answers.append(agent.run(text))
        traces.append(agent.last_trace)
    return memory, traces, answers


def request_text(trace):
    """Everything turn `trace` sent to the model, as one string."""
    return "\n".join(m.content for m in trace.messages)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", MEMORIES)
def test_turn_2_applies_for_the_refund(lang, name):
    """Whatever the memory, turn 2 calls applyRefund and its answer names the refund
    number: the number turn 6 asks for exists."""
    _, traces, answers = play(lang, name)
    assert [c.name for c in traces[1].tool_calls] == ["applyRefund"]
    assert REFUND in answers[1]


@pytest.mark.parametrize("lang", LANGS)
def test_in_memory_answers_turn_6_from_the_full_history(lang):
    """In-memory: turn 6's request holds turn 2's question and refund answer verbatim;
    the answer gives the refund number without calling a tool."""
    _, traces, answers = play(lang, "inmemory")
    request = traces[5].messages
    assert any(m.role is Role.USER and m.content == SIX_TURNS[lang][1]
               for m in request)
    assert any(m.role is Role.ASSISTANT and m.content == answers[1] for m in request)
    assert REFUND in answers[5] and traces[5].tool_calls == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_window_has_forgotten_the_refund_number_and_says_so(lang):
    """Window of 3 rounds: turn 6's request holds only turns 3-5 (6 messages) and no
    refund number anywhere; the answer has none either and honestly says it cannot
    find one, without calling a tool."""
    _, traces, answers = play(lang, "window")
    request = traces[5].messages
    assert [m.content for m in request[1:-1] if m.role is Role.USER] == SIX_TURNS[
        lang][2:5]
    assert len(request) == 1 + 6 + 1  # system prompt, the window, the question
    assert REFUND not in request_text(traces[5])
    assert REFUND not in answers[5] and CANNOT_FIND[lang] in answers[5]
    assert traces[5].tool_calls == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SUMMARIZING)
def test_summary_memories_answer_turn_6_from_the_summary(lang, name):
    """Summary 10/4 and hybrid 6/10: the refund turn is no longer verbatim in turn 6's
    request; the refund number is there only inside the fenced summary in the system
    prompt, and the answer gives it without calling a tool."""
    memory, traces, answers = play(lang, name)
    system, *rest = traces[5].messages
    assert memory.compression_count >= 1
    assert system.role is Role.SYSTEM and Role.SYSTEM not in [m.role for m in rest]
    assert all(m.content != SIX_TURNS[lang][1] for m in rest)
    assert all(answers[1] not in m.content for m in rest)
    prompt, fenced = system.content.split(SUMMARY_HEADER)
    summary, after = fenced.split(SUMMARY_FOOTER)
    assert REFUND in summary
    assert REFUND not in prompt + after + "\n".join(m.content for m in rest)
    assert REFUND in answers[5] and traces[5].tool_calls == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SUMMARIZING)
def test_the_final_summary_keeps_the_order_and_refund_numbers(lang, name):
    """After six turns the summary still holds order 88231 and the refund number."""
    memory, _, _ = play(lang, name)
    assert "88231" in memory.summary and REFUND in memory.summary


@pytest.mark.parametrize("lang", LANGS)
def test_print_memory_prints_one_short_numbered_line_a_message(lang, capsys):
    """After the hybrid demo: one line a message, numbered from 1, the role (or
    "summary", without its fence) and the tokens, each line at most 80 characters."""
    memory, _, _ = play(lang, "hybrid")
    print_memory(memory)
    lines = capsys.readouterr().out.splitlines()
    held = memory.messages()
    assert len(lines) == len(held) == 9  # the summary + turns 3-6
    for number, (line, message) in enumerate(zip(lines, held, strict=True), 1):
        label = "summary" if number == 1 else message.role.value
        mark = "★" if label == "summary" else " "
        tokens = count_message_tokens(message)
        assert line.startswith(f"{mark}{number:>2}  {label:<9} {tokens:>5}  ")
        assert len(line) <= 80 and "\n" not in line
    assert SUMMARY_HEADER[:20] not in lines[0] and "88231" in lines[0]
    assert REFUND in lines[-1]  # turn 6's answer, short enough to print whole
