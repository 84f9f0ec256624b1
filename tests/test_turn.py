"""Rules of one turn's bookkeeping (turn.py): the repeat count the repeated-call
guard reads, and how a reply without tool calls ends the turn."""

from hypothesis import example, given
from hypothesis import strategies as st

from tinyagent.chat_model import ChatResponse
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.trace import StopReason
from tinyagent.turn import Turn

CALLS = {"A": ToolCall("a", "queryOrder", {"order_id": "88231"}),
         "B": ToolCall("b", "queryLogistics", {"order_id": "88231"})}


def turn() -> Turn:
    return Turn.start([ChatMessage.system("BitMall"), ChatMessage.user("q")], "q")


@given(st.lists(st.sampled_from(["A", "B", "AB"]), min_size=1, max_size=12))
@example(["A", "A", "B", "B"])  # a repeat, another step, a repeat: never two in a row
@example(["A", "A", "A"])  # two in a row: the guard's stop
@example(["AB", "AB", "A"])
def test_repeats_count_the_steps_in_a_row_that_made_the_same_calls(steps):
    """After each step, `repeats` is how many steps in a row, ending with it, made
    the calls of the step before: a different step starts the count again."""
    current, expected = turn(), []
    for index, step in enumerate(steps):
        run = expected[-1] + 1 if index and steps[index - 1] == step else 0
        expected.append(run)
        current.step(ChatResponse(f"step {index}", [CALLS[c] for c in step]), 8)
        assert current.repeats == expected[-1], (steps[:index + 1], current.repeats)


def test_a_reply_without_tools_ends_the_turn_by_its_kind():
    """A reply is the answer; an empty one is not (an apology will replace it); one
    cut at the length limit is kept, marked as cut, in the question's language."""
    assert turn().take_reply(ChatResponse("Delivered.")) is StopReason.ANSWER
    assert turn().take_reply(ChatResponse("  ")) is StopReason.EMPTY_REPLY
    cut = turn()
    assert cut.take_reply(ChatResponse("Deliv", finish_reason="length")) \
        is StopReason.CUT_OFF
    assert cut.trace.answer == "Deliv [cut off: the reply reached its length limit]"
    chinese = Turn.start([ChatMessage.user("到哪了")], "到哪了")
    chinese.take_reply(ChatResponse("已", finish_reason="length"))
    assert chinese.trace.answer == "已 ［回复达到长度上限，已截断］"
