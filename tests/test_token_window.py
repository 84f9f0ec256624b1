"""Rules of TokenWindowChatMemory (notebook 03): the newest whole turns that fit."""

from tinyagent.memory import TokenWindowChatMemory, split_turns
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.tokens import count_message_tokens


def turns(n):
    """n turns of different sizes: plain ones and ones with a long tool result."""
    made = []
    for i in range(n):
        turn = [ChatMessage.user(f"Where is order {88230 + i}?")]
        if i % 2:
            call = ToolCall(f"call_{i}", "queryLogistics", {"order_id": str(88230 + i)})
            turn += [ChatMessage.assistant("", [call]),
                     ChatMessage.tool(call.id, "picked up; in transit; " * (5 + i))]
        made.append(turn + [ChatMessage.assistant(f"Order {88230 + i} is on its way.")])
    return made


def tokens(messages):
    return sum(count_message_tokens(m) for m in messages)


def test_it_keeps_the_newest_turns_that_fit():
    """Budget = the last two turns' tokens exactly: it holds those two turns."""
    conversation = turns(6)
    budget = tokens(conversation[-1] + conversation[-2])
    memory = TokenWindowChatMemory(budget)
    for turn in conversation:
        for message in turn:
            memory.add(message)
    assert memory.messages() == conversation[-2] + conversation[-1]
    assert memory.tokens == budget


def test_one_token_less_drops_a_whole_turn():
    """One token under the two turns' total: the older of the two goes, entirely."""
    conversation = turns(6)
    memory = TokenWindowChatMemory(tokens(conversation[-1] + conversation[-2]) - 1)
    for turn in conversation:
        for message in turn:
            memory.add(message)
    assert memory.messages() == conversation[-1]


def test_it_stays_within_budget_and_on_turn_boundaries():
    """After every add: within max_tokens (or one turn alone), starting at a turn."""
    memory = TokenWindowChatMemory(150)
    for turn in turns(12):
        for message in turn:
            memory.add(message)
            held = memory.messages()
            assert memory.tokens <= 150 or len(split_turns(held)) == 1
            assert held[0].role.value == "user"


def test_an_oversize_turn_is_kept_alone_not_cut():
    """A turn larger than the whole budget is kept whole until the next one starts."""
    big = turns(8)[7]
    memory = TokenWindowChatMemory(20)
    for message in turns(1)[0] + big:
        memory.add(message)
    assert memory.messages() == big and memory.tokens > 20
    memory.add(ChatMessage.user("ok"))
    assert len(memory) == 1


def test_the_running_total_matches_a_recount():
    """tokens is kept as a running total; after many drops it equals a recount."""
    memory = TokenWindowChatMemory(200)
    for turn in turns(30):
        for message in turn:
            memory.add(message)
    assert memory.tokens == tokens(memory.messages())
    assert memory.stats()["dropped"] == sum(map(len, turns(30))) - len(memory)
