"""The checkers of notebooks 03–05: a correct answer passes, a plausible slip fails."""

import pytest

from tinyagent.exercises import check
from tinyagent.memory.base import split_turns
from tinyagent.memory.summarizer import (
    PROMPT,
    fallback_summary,
    find_ids,
    keep_ids,
    render,
)
from tinyagent.messages import ChatMessage
from tinyagent.tokens import count_message_tokens


@pytest.fixture(autouse=True)
def quiet(capsys):
    """The checkers print a line per case; these tests read only the verdict."""
    yield
    capsys.readouterr()


# -- 03.rounds_window
class RoundsWindowMemory:
    def __init__(self, max_rounds):
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be >= 1, got {max_rounds}")
        self.max_rounds = max_rounds
        self._messages = []

    def add(self, message):
        self._messages.append(message)
        turns = split_turns(self._messages)
        if len(turns) > self.max_rounds:
            self._messages = [m for t in turns[-self.max_rounds:] for m in t]

    def messages(self):
        return list(self._messages)

    def clear(self):
        self._messages = []


def test_rounds_window_reference_passes():
    """The newest max_rounds turns (a turn starts at a user message), whole."""
    assert check("03.rounds_window", RoundsWindowMemory)


class LastMessages(RoundsWindowMemory):
    """2 * max_rounds messages: a round as a pair, which tool calls break."""

    def add(self, message):
        self._messages.append(message)
        self._messages = self._messages[-2 * self.max_rounds:]


class OneTooMany(RoundsWindowMemory):
    def add(self, message):
        self._messages.append(message)
        turns = split_turns(self._messages)
        self._messages = [m for t in turns[-self.max_rounds - 1:] for m in t]


class NoCheck(RoundsWindowMemory):
    def __init__(self, max_rounds):
        self.max_rounds, self._messages = max(max_rounds, 1), []


class HandsOutList(RoundsWindowMemory):
    def messages(self):
        return self._messages


@pytest.mark.parametrize("wrong", [LastMessages, OneTooMany, NoCheck, HandsOutList],
                         ids=["counts-messages", "off-by-one", "no-value-check",
                              "no-copy"])
def test_rounds_window_slips_fail(wrong):
    """Counting messages, keeping a round too many, no ValueError or no copy fail."""
    assert not check("03.rounds_window", wrong)


# -- 03.token_window
def token_window(messages, max_tokens):
    kept, tokens = [], 0
    for turn in reversed(split_turns(messages)):
        size = sum(count_message_tokens(m) for m in turn)
        if kept and tokens + size > max_tokens:
            break
        kept, tokens = turn + kept, tokens + size
    return kept


def test_token_window_reference_passes():
    """Newest whole turns while they fit; the newest turn is kept even if too big."""
    assert check("03.token_window", token_window)


def per_message(messages, max_tokens):
    kept = list(messages)
    while len(kept) > 1 and sum(count_message_tokens(m) for m in kept) > max_tokens:
        kept.pop(0)
    return kept


def drops_newest_too(messages, max_tokens):
    kept, tokens = [], 0
    for turn in reversed(split_turns(messages)):
        size = sum(count_message_tokens(m) for m in turn)
        if tokens + size > max_tokens:
            break
        kept, tokens = turn + kept, tokens + size
    return kept


def oldest_first(messages, max_tokens):
    kept, tokens = [], 0
    for turn in split_turns(messages):
        size = sum(count_message_tokens(m) for m in turn)
        if tokens + size > max_tokens:
            break
        kept, tokens = kept + turn, tokens + size
    return kept


def pops_input(messages, max_tokens):
    while len(split_turns(messages)) > 1 and sum(
            count_message_tokens(m) for m in messages) > max_tokens:
        del messages[:len(split_turns(messages)[0])]
    return list(messages)


@pytest.mark.parametrize("wrong", [per_message, drops_newest_too, oldest_first,
                                   pops_input],
                         ids=["cuts-messages", "drops-newest-turn", "keeps-oldest",
                              "mutates-input"])
def test_token_window_slips_fail(wrong):
    """Message-level cuts, an empty result, the oldest turns or mutation all fail."""
    assert not check("03.token_window", wrong)


# -- 04.summary_trigger
def plan_compression(messages, threshold, keep_recent):
    if len(messages) < threshold:
        return 0
    cut = 0
    for turn in split_turns(messages):
        if len(messages) - cut - len(turn) < keep_recent:
            break
        cut += len(turn)
    return cut


def test_summary_trigger_reference_passes():
    """From `threshold` messages on, the oldest whole turns, keep_recent left."""
    assert check("04.summary_trigger", plan_compression)


def by_messages(messages, threshold, keep_recent):
    return len(messages) - keep_recent if len(messages) >= threshold else 0


def strictly_over(messages, threshold, keep_recent):
    return plan_compression(messages, threshold + 1, keep_recent)


def oldest_turn_only(messages, threshold, keep_recent):
    turns = split_turns(messages)
    if len(messages) < threshold or len(turns) < 2:
        return 0
    return len(turns[0]) if len(messages) - len(turns[0]) >= keep_recent else 0


def keeps_too_little(messages, threshold, keep_recent):
    if len(messages) < threshold:
        return 0
    cut = 0
    for turn in split_turns(messages)[:-1]:
        cut += len(turn)
    return cut


@pytest.mark.parametrize("wrong", [by_messages, strictly_over, oldest_turn_only,
                                   keeps_too_little],
                         ids=["cuts-mid-turn", "fires-one-late", "one-turn-a-time",
                              "ignores-keep-recent"])
def test_summary_trigger_slips_fail(wrong):
    """Cutting inside a turn, '>' for '>=', one turn a time or no keep_recent fail."""
    assert not check("04.summary_trigger", wrong)


# -- 05.merge_step
def _request(previous, overflow):
    return [ChatMessage.system(PROMPT), ChatMessage.user(
        f"Previous summary:\n{previous or '(none)'}\n\n"
        f"New messages:\n{render(overflow)}")]


def merge_summary(llm, previous, overflow):
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    if not text:
        text = fallback_summary(previous, overflow)
    return keep_ids(text, find_ids(request[1].content))


def test_merge_step_reference_passes():
    """Previous summary + overflow in, ids guarded, a fallback when the model fails."""
    assert check("05.merge_step", merge_summary)


def from_scratch(llm, previous, overflow):
    request = _request(None, overflow)  # forgets the previous summary
    return keep_ids(llm.chat(request).content, find_ids(request[1].content))


def no_guard(llm, previous, overflow):
    try:
        text = llm.chat(_request(previous, overflow)).content.strip()
    except Exception:
        text = ""
    return text or fallback_summary(previous, overflow)


def raises_on_failure(llm, previous, overflow):
    request = _request(previous, overflow)
    return keep_ids(llm.chat(request).content, find_ids(request[1].content))


def says_none(llm, previous, overflow):
    request = [ChatMessage.system(PROMPT), ChatMessage.user(
        f"Previous summary:\n{previous}\n\nNew messages:\n{render(overflow)}")]
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    text = text or fallback_summary(previous, overflow)
    return keep_ids(text, find_ids(request[1].content))


@pytest.mark.parametrize("wrong", [from_scratch, no_guard, raises_on_failure,
                                   says_none],
                         ids=["not-incremental", "no-entity-guard", "no-fallback",
                              "prints-None"])
def test_merge_step_slips_fail(wrong):
    """Dropping the old summary, the guard or the fallback, or 'None' in text fail."""
    assert not check("05.merge_step", wrong)


def test_the_stubs_read_as_not_yet(capsys):
    """The notebooks' stubs (raise NotImplementedError) fail every case, no crash."""
    def stub(*args):
        raise NotImplementedError

    class StubMemory:
        def __init__(self, max_rounds):
            raise NotImplementedError

    for name, candidate in [("03.rounds_window", StubMemory), ("03.token_window", stub),
                            ("04.summary_trigger", stub), ("05.merge_step", stub)]:
        assert not check(name, candidate)
        assert "not yet — keep going." in capsys.readouterr().out
