"""Rules of ReActAgent: the loop, the four guards, and how memory is committed."""

import re

import pytest

from tinyagent.agent import ReActAgent, TurnNotSavedError
from tinyagent.chat_model import ChatResponse, LlmError
from tinyagent.llm import LlmClient
from tinyagent.memory import InMemoryChatMemory
from tinyagent.messages import ChatMessage, Role, ToolCall
from tinyagent.tokens import count_messages_tokens
from tinyagent.tools import bitmall_tools

ORDERS = {"88231": 1999, "90417": 399, "55107": 699, "73820": 1599, "61554": 2499}
REFUND_NUMBER = re.compile(r"RF2026070100\d")


def agent(memory=None, model=None, **kwargs):
    llm = LlmClient(offline=True, model=model)
    return ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False, **kwargs)


def names(a):
    return [call.name for call in a.last_trace.tool_calls]


@pytest.mark.parametrize("order_id", ORDERS)
def test_without_memory_the_second_turn_asks_which_order(order_id):
    """Stateless: turn 2 has no history, so the agent asks for the order, no tool."""
    a = agent()
    a.run(f"Where is my order {order_id}?")
    assert names(a)[0] == "queryOrder"
    answer = a.run("I want a refund, it won't go back to its dock")
    assert names(a) == [] and a.last_trace.stop_reason == "answer"
    assert "order" in answer.lower() and not REFUND_NUMBER.search(answer)
    assert [m.role for m in a.last_trace.messages] == [Role.SYSTEM, Role.USER]


@pytest.mark.parametrize("order_id", ORDERS)
def test_with_memory_the_second_turn_refunds_the_same_order(order_id):
    """With memory, turn 2 calls applyRefund for that order, no queryOrder again."""
    a = agent(InMemoryChatMemory())
    a.run(f"Where is my order {order_id}?")
    answer = a.run("I want a refund, it won't go back to its dock")
    assert [(c.name, c.arguments["order_id"]) for c in a.last_trace.tool_calls] == [
        ("applyRefund", order_id)]
    assert REFUND_NUMBER.search(answer)


@pytest.mark.parametrize("first,second", [
    ("Can you track order {o} for me?", "I'd like my money back for that order"),
    ("Has my package {o} shipped yet?", "Please return it, I changed my mind"),
    ("When will order {o} arrive?", "refund it please"),
])
def test_other_phrasings_work_the_same(first, second):
    """Any phrasing with the intent words works, not one scripted sentence."""
    a = agent(InMemoryChatMemory())
    a.run(first.format(o="55107"))
    assert a.run(second) and names(a) == ["applyRefund"]


def test_the_original_chinese_dialog():
    """帮我查一下订单 88231 的物流到哪了 → 那我要退款呢 refunds 88231 with memory."""
    a = agent(InMemoryChatMemory())
    a.run("帮我查一下订单 88231 的物流到哪了")
    assert names(a)[0] == "queryOrder"
    answer = a.run("那我要退款呢，这个扫地机不回充了")
    assert names(a) == ["applyRefund"] and "RF20260701001" in answer


def test_memory_gets_user_message_and_answer_only():
    """By default memory stores the user message and the final answer, no tool calls."""
    memory = InMemoryChatMemory()
    a = agent(memory)
    answer = a.run("Where is my order 88231?")
    assert [(m.role, m.content) for m in memory.messages()] == [
        (Role.USER, "Where is my order 88231?"), (Role.ASSISTANT, answer)]


def test_remember_tool_calls_keeps_the_whole_turn():
    """remember_tool_calls=True stores calls and results, each call with its result."""
    memory = InMemoryChatMemory()
    a = agent(memory, remember_tool_calls=True)
    a.run("Where is my order 88231?")
    roles = [m.role for m in memory.messages()]
    assert roles[0] is Role.USER and roles[-1] is Role.ASSISTANT and Role.TOOL in roles
    called = {c.id for m in memory.messages() for c in m.tool_calls}
    assert called == {m.tool_call_id for m in memory.messages() if m.role is Role.TOOL}


def test_history_follows_the_system_prompt():
    """Memory is injected right after the system prompt, before the new question."""
    memory = InMemoryChatMemory()
    a = agent(memory)
    a.run("Where is my order 88231?")
    a.run("How much is the S20 Pro?")
    roles = [m.role for m in a.last_trace.messages][:4]
    assert roles == [Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER]


def test_a_turn_that_raises_leaves_memory_unchanged():
    """When the model call fails, the error propagates and memory is as it was."""
    memory = InMemoryChatMemory()
    agent(memory).run("Where is my order 88231?")
    before = memory.messages()
    with pytest.raises(LlmError):
        agent(memory, model="bitmall-offline+error").run("I want a refund")
    assert memory.messages() == before


def test_max_steps_guard():
    """A question that needs a tool, with max_steps=1, stops with max_steps."""
    a = agent(max_steps=1)
    answer = a.run("Where is my order 88231?")
    assert a.last_trace.stop_reason == "max_steps" and "within 1 step." in answer


def test_token_budget_guard():
    """A request larger than max_tokens is never sent: the turn stops first."""
    a = agent(max_tokens=200)
    answer = a.run("Where is my order 88231?")
    assert a.last_trace.stop_reason == "token_budget"
    assert a.last_trace.prompt_tokens == [] and "budget 200" in answer


def test_repeated_call_guard():
    """A model repeating one call is warned once (tools not rerun), then stopped."""
    a = agent(model="bitmall-offline+repeat")
    a.run("Where is my order 88231?")
    trace = a.last_trace
    assert trace.stop_reason == "repeated_call"
    assert len(trace.steps) == 3 and names(a) == ["queryOrder"]
    assert "already called" in trace.steps[1].results[0]


def test_only_repeats_in_a_row_stop_the_turn():
    """A repeat counts only right after the step it repeats: a model that repeats
    one call, moves on to another, then repeats that one is warned twice (neither
    repeat is run) and stopped never; it answers."""
    first = ToolCall("c1", "queryOrder", {"order_id": "88231"})
    second = ToolCall("c2", "queryLogistics", {"order_id": "88231"})
    thoughts = ["Look the order up.", "Once more, to be sure?", "Now its parcel.",
                "Track it again: 88231 SF"]  # unalike: the no-progress guard sleeps
    llm = ScriptedLlm(*(ChatResponse(thought, [call]) for thought, call in zip(
        thoughts, (first, first, second, second), strict=True)),
                      ChatResponse("Delivered on 2026-06-22."))
    a = ReActAgent(llm, bitmall_tools(), verbose=False)
    assert a.run("Where is my order 88231?") == "Delivered on 2026-06-22."
    trace = a.last_trace
    assert trace.stop_reason == "answer" and names(a) == ["queryOrder",
                                                          "queryLogistics"]
    assert ["already called" in step.results[0] for step in trace.steps] == [
        False, True, False, True]


def test_every_leading_system_message_folds_into_the_system_prompt():
    """A memory may open with several system messages (a summary in blocks, as the
    compact memory keeps it): all of them join the one system prompt, in order,
    because providers reject a system message in mid-history."""
    class Blocks:
        def messages(self):
            return [ChatMessage.system("- block 1"), ChatMessage.system("- block 2"),
                    ChatMessage.user("hi"), ChatMessage.assistant("Hello!")]

    sent = agent(memory=Blocks()).build_messages("Where is my order 88231?")
    assert [m.role for m in sent] == [Role.SYSTEM, Role.USER, Role.ASSISTANT,
                                      Role.USER]
    assert sent[0].content.endswith("\n\n- block 1\n\n- block 2")


def test_a_system_prompt_set_after_construction_is_the_one_sent():
    """agent.system_prompt = ... changes the next request's system prompt; None
    gives the package's again (it is a property, not a copy taken when built)."""
    a = agent()
    default = a.build_messages("hi")[0].content
    a.system_prompt = "You are a terse clerk."
    assert a.system_prompt == "You are a terse clerk."
    assert a.build_messages("hi")[0].content == "You are a terse clerk."
    a.system_prompt = None
    assert a.build_messages("hi")[0].content == default == a.system_prompt


def test_a_memory_that_adds_turns_gets_the_turn_in_one_call():
    """A memory with add_all (AddsTurns: a session's one transaction) receives the
    user message and the answer in one call; any other memory gets one add a
    message, in the same order."""
    class Recording(InMemoryChatMemory):
        def __init__(self):
            super().__init__()
            self.calls = []

        def add(self, message):
            self.calls.append([message.role])
            super().add(message)

    class Turns(Recording):
        def add_all(self, messages):
            self.calls.append([m.role for m in messages])
            for message in messages:
                InMemoryChatMemory.add(self, message)

    for memory, calls in ((Turns(), [[Role.USER, Role.ASSISTANT]]),
                          (Recording(), [[Role.USER], [Role.ASSISTANT]])):
        agent(memory=memory).run("Where is my order 88231?")
        assert memory.calls == calls and len(memory.messages()) == 2


def test_no_progress_guard():
    """Three near-identical thoughts in a row stop the turn with no_progress."""
    a = agent(model="bitmall-offline+dither")
    a.run("Where is my order 88231?")
    assert a.last_trace.stop_reason == "no_progress" and len(a.last_trace.steps) == 3


def test_guards_answer_in_chinese_for_chinese_questions():
    """A stopped turn apologises in the customer's language."""
    a = agent(max_steps=1)
    assert "抱歉" in a.run("帮我查一下订单 88231 的物流到哪了")


def test_stopped_turns_still_reach_memory():
    """Whatever the stop reason, the user message and the answer are committed."""
    memory = InMemoryChatMemory()
    answer = agent(memory, max_steps=1).run("Where is my order 88231?")
    contents = [m.content for m in memory.messages()]
    assert contents == ["Where is my order 88231?", answer]


@pytest.mark.parametrize("kwargs,message", [
    ({"max_steps": 0}, "max_steps must be >= 1"),
    ({"max_steps": -3}, "got -3"),
    ({"max_tokens": -1}, "max_tokens must be >= 1"),
    ({"max_steps": True}, "max_steps must be an int .*got True"),
    ({"max_steps": 1.5}, "max_steps must be an int .*got 1.5"),
    ({"max_tokens": 8000.0}, "max_tokens must be an int"),
    ({"max_tool_calls_per_step": 0}, "max_tool_calls_per_step must be >= 1"),
    ({"max_tool_calls_per_step": False}, "max_tool_calls_per_step must be an int"),
])
def test_bad_limits_are_rejected(kwargs, message):
    """A size that is not a positive whole number (True and 1.5 included) is a
    ValueError naming the parameter and the value."""
    with pytest.raises(ValueError, match=message):
        agent(**kwargs)


@pytest.mark.parametrize("text", ["", "   ", None])
def test_empty_user_text_is_rejected(text):
    """run() with empty text is a ValueError before any model call."""
    with pytest.raises(ValueError, match="non-empty"):
        agent().run(text)


def test_text_that_was_not_utf8_is_rejected():
    """A line read from bytes that were not UTF-8 (surrogates) is a ValueError that
    says so, not a model error."""
    with pytest.raises(ValueError, match="not valid UTF-8"):
        agent().run(b"order \xff\xfe".decode("utf-8", "surrogateescape"))


class ScriptedLlm:
    """A fake model that returns prepared responses (for loop mechanics only)."""

    def __init__(self, *responses):
        self.responses = list(responses)

    def chat(self, messages, tools=None):
        return self.responses.pop(0)


def test_unknown_tool_goes_back_to_the_model():
    """A call to a tool that does not exist becomes a tool result; the turn goes on."""
    llm = ScriptedLlm(ChatResponse("hm", [ToolCall("c1", "teleport", {})]),
                      ChatResponse("I cannot do that."))
    a = ReActAgent(llm, bitmall_tools(), verbose=False)
    assert a.run("beam me up") == "I cannot do that."
    assert "unknown tool 'teleport'" in a.last_trace.steps[0].results[0]


def test_verbose_trace_is_deterministic(capsys):
    """The printed trace shows thought, call, result and answer, the same every run."""
    outputs = []
    for _ in range(2):
        ReActAgent(LlmClient(offline=True), bitmall_tools()).run(
            "Where is my order 88231?")
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    for part in ["User: Where is my order 88231?", "thought:", "result:",
                 'queryOrder(order_id="88231")', "stop: answer", "Agent: "]:
        assert part in outputs[0]


def test_an_unchanged_system_prompt_is_not_counted_again():
    """Turn after turn, the same system text is the same (already counted) message."""
    a = agent(InMemoryChatMemory())
    a.run("Where is my order 88231?")
    first = a.last_trace.messages[0]
    a.run("How much is the S20 Pro?")
    assert a.last_trace.messages[0] is first and first._tokens is not None


@pytest.mark.parametrize("content,question,apology", [
    ("", "Where is my order 88231?", "empty reply"),
    ("  \n", "Where is my order 88231?", "empty reply"),
    ("", "帮我查一下订单 88231", "回复是空的"),
])
def test_an_empty_reply_is_never_the_answer(content, question, apology):
    """A reply with no text and no tool call ends the turn with the empty_reply
    apology; memory gets that apology, never an empty assistant message."""
    memory = InMemoryChatMemory()
    a = ReActAgent(ScriptedLlm(ChatResponse(content)), bitmall_tools(),
                   memory=memory, verbose=False)
    assert apology in a.run(question)
    assert a.last_trace.stop_reason == "empty_reply"
    assert all(m.content.strip() for m in memory.messages())


def test_the_offline_empty_mode_is_handled_too():
    """The offline model's '+empty' mode gives the same stop reason."""
    a = agent(model="bitmall-offline+empty")
    a.run("Where is my order 88231?")
    assert a.last_trace.stop_reason == "empty_reply"


def test_an_answer_cut_at_the_length_limit_is_marked_as_cut():
    """finish_reason "length": the answer shown and stored says it was cut off."""
    memory = InMemoryChatMemory()
    llm = ScriptedLlm(ChatResponse("Your order 88231 was deliv",
                                   finish_reason="length"))
    a = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    answer = a.run("Where is my order 88231?")
    assert answer.startswith("Your order 88231 was deliv") and "[cut off" in answer
    assert a.last_trace.stop_reason == "cut_off"
    assert memory.messages()[-1].content == answer


def test_tool_calls_beyond_the_step_limit_are_not_run():
    """Of 2,000 calls in one reply only max_tool_calls_per_step run; the model is told
    how many were not, and every call sent back has its one result."""
    calls = [ToolCall(f"c{i}", "applyRefund", {"order_id": "88231"})
             for i in range(2000)]
    llm = ScriptedLlm(ChatResponse("refund all", calls), ChatResponse("Done."))
    a = ReActAgent(llm, bitmall_tools(), verbose=False, max_tool_calls_per_step=3)
    assert a.run("refund order 88231") == "Done."
    trace = a.last_trace
    assert [c.id for c in trace.tool_calls] == ["c0", "c1", "c2"]
    asked = [m for m in trace.messages if m.tool_calls]
    results = [m for m in trace.messages if m.role is Role.TOOL]
    assert [len(m.tool_calls) for m in asked] == [3] and len(results) == 3
    assert "1997 more tool calls were not run" in results[-1].content


class FailingStore(InMemoryChatMemory):
    """A memory whose database refuses writes (read-only, or locked)."""

    def add(self, message):
        import sqlite3

        raise sqlite3.OperationalError("attempt to write a readonly database")


def test_an_answer_that_cannot_be_saved_is_still_returned():
    """When memory fails to store the turn, run() raises TurnNotSavedError holding
    the answer (it was paid for), with the store's error as its cause."""
    a = agent(FailingStore())
    with pytest.raises(TurnNotSavedError) as info:
        a.run("Where is my order 88231?")
    assert "88231" in info.value.answer and info.value.answer == a.last_trace.answer
    assert "readonly database" in str(info.value)
    assert type(info.value.__cause__).__name__ == "OperationalError"


def test_the_agent_stops_when_no_progress_says_so_and_not_before():
    """Drifting thoughts (different calls each step) run on; thoughts pairwise at
    0.7 or more stop the turn at the third step."""
    drift = ["abcdefghij", "bcdefghijk", "cdefghijkl"]  # ends only 0.67 alike
    edge = ["abcdefgxy", "abcdefgz", "abcdefgxy"]  # pairs 0.7, 1.0, 0.7
    def steps(thoughts):
        return [ChatResponse(t, [ToolCall(f"c{i}", "queryOrder",
                                          {"order_id": f"8823{i}"})])
                for i, t in enumerate(thoughts)]
    drifting = ReActAgent(ScriptedLlm(*steps(drift), ChatResponse("Done.")),
                          bitmall_tools(), verbose=False)
    assert drifting.run("orders?") == "Done."
    stuck = ReActAgent(ScriptedLlm(*steps(edge)), bitmall_tools(), verbose=False)
    stuck.run("orders?")
    assert stuck.last_trace.stop_reason == "no_progress"


def test_a_request_of_exactly_max_tokens_is_sent():
    """The token budget is inclusive: a request of max_tokens tokens is sent, one
    token more is not."""
    probe = ReActAgent(ScriptedLlm(), bitmall_tools(), verbose=False)
    size = (count_messages_tokens(probe.build_messages("hello"))
            + probe.tools.schema_tokens())
    fits = ReActAgent(ScriptedLlm(ChatResponse("Hi!")), bitmall_tools(),
                      max_tokens=size, verbose=False)
    assert fits.run("hello") == "Hi!"
    over = ReActAgent(ScriptedLlm(), bitmall_tools(), max_tokens=size - 1,
                      verbose=False)
    over.run("hello")
    assert over.last_trace.stop_reason == "token_budget"


def test_the_repeat_notice_speaks_the_users_language():
    """The note the agent sends the model instead of a repeated call is Chinese when
    the user wrote Chinese, English otherwise."""
    for question, words in (("我的订单88231到哪了？", "已经用同样的参数调用过"),
                            ("Where is my order 88231?", "already called")):
        a = agent(model="bitmall-offline+repeat")
        a.run(question)
        assert words in a.last_trace.steps[1].results[0]


def test_a_chinese_agent_sends_a_chinese_system_prompt_and_memory_hint():
    """lang="zh": the package's prompt and memory hint are Chinese; "auto" picks by
    each user message; a system_prompt of one's own is kept as given."""
    from tinyagent import InMemoryChatMemory
    from tinyagent.agent import MEMORY_HINT_ZH, SYSTEM_PROMPT, SYSTEM_PROMPT_ZH

    memory = InMemoryChatMemory()
    chinese = agent(lang="zh", memory=memory).build_messages("退款")[0].content
    assert chinese == SYSTEM_PROMPT_ZH + "\n\n" + MEMORY_HINT_ZH
    auto = agent(lang="auto")
    assert auto.build_messages("退款")[0].content == SYSTEM_PROMPT_ZH
    assert auto.build_messages("refund")[0].content == SYSTEM_PROMPT
    own = agent(lang="zh", system_prompt="Be brief.")
    assert own.build_messages("退款")[0].content == "Be brief."


@pytest.mark.parametrize("argument, value", [("llm", None), ("tools", None),
                                             ("memory", "hybrid")])
def test_a_wrong_llm_tools_or_memory_is_refused_at_construction(argument, value):
    """ReActAgent(llm=None), tools=None or memory="hybrid": TypeError at once naming
    the argument, not AttributeError at the first turn."""
    arguments = {"llm": LlmClient(offline=True), "tools": bitmall_tools(),
                 argument: value}
    with pytest.raises(TypeError, match=f"^{argument} must have a .* method"):
        ReActAgent(**arguments)
