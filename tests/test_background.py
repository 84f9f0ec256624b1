"""Rules of background compression. Synchronised with Events and futures, no sleeps."""

import subprocess
import sys
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent.chat_model import ChatResponse, LlmError
from tinyagent.llm import LlmClient
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.production import BackgroundSummaryChatMemory, StructuredSummary

TIMEOUT = 5  # seconds: only reached when a test is broken


class GatedLlm:
    """A summarizer model that blocks each call until `release` is set."""

    def __init__(self, fail=False):
        self.release, self.started = threading.Event(), threading.Event()
        self.calls = self.running = self.most_at_once = 0
        self.batches, self.fail, self._lock = [], fail, threading.Lock()

    def chat(self, messages, tools=None):
        with self._lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            self.batches.append(messages[1].content.count("[user]"))
        self.started.set()
        assert self.release.wait(TIMEOUT), "the test never released the summarizer"
        with self._lock:
            self.running -= 1
        if self.fail:
            raise LlmError("model call failed: HTTP 500")
        return ChatResponse('{"goal": "a refund", "pending": ["inspection"]}')


@pytest.fixture
def pool():
    executor = ThreadPoolExecutor(2)
    yield executor
    executor.shutdown(wait=True)


def turn(n):
    return [ChatMessage.user(f"question {n} about order 8823{n % 10}"),
            ChatMessage.assistant(f"answer {n}")]


def add_turns(memory, numbers):
    for n in numbers:
        for message in turn(n):
            memory.add(message)


def test_the_turn_does_not_wait_and_the_next_one_uses_what_is_ready(pool):
    """add() returns while the summarizer runs; until it ends, messages() is the old
    state (no summary, every turn verbatim); then the result is applied."""
    llm = GatedLlm()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=2, executor=pool)
    add_turns(memory, range(3))  # turn 0 is now due
    assert llm.started.wait(TIMEOUT) and memory.in_flight is not None
    assert memory.summary is None and len(memory.messages()) == 6
    llm.release.set()
    state = memory.wait()
    assert state.compression_count == 1 and state.covered_up_to == 2
    assert memory.messages()[1:] == [m for n in (1, 2) for m in turn(n)]


def test_at_most_one_compression_is_in_flight_and_the_next_takes_the_backlog(pool):
    """Turns that end during a compression start nothing; when it finishes, one more
    compression takes every due turn at once (up to batch_turns)."""
    llm = GatedLlm()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=1, batch_turns=6,
                                     executor=pool)
    add_turns(memory, range(2))
    assert llm.started.wait(TIMEOUT)
    add_turns(memory, range(2, 6))  # four more turns end while it runs
    assert llm.calls == 1
    llm.release.set()
    state = memory.wait()
    assert llm.batches == [1, 4] and llm.most_at_once == 1
    assert state.compression_count == 2 and state.covered_up_to == 10
    assert memory.messages()[1:] == turn(5)


def test_two_sessions_compress_at_the_same_time(pool):
    """The limit is per memory (per session), not global: both run in parallel."""
    barrier = threading.Barrier(2, timeout=TIMEOUT)
    met = []

    class MeetingLlm:
        def chat(self, messages, tools=None):
            met.append(barrier.wait())  # raises BrokenBarrierError if alone
            return ChatResponse('{"goal": "a refund"}')

    memories = [BackgroundSummaryChatMemory(MeetingLlm(), keep_recent_turns=1,
                                        executor=pool) for _ in range(2)]
    for memory in memories:
        add_turns(memory, range(2))
    states = [memory.wait() for memory in memories]
    assert sorted(met) == [0, 1]
    assert [s.compression_count for s in states] == [1, 1]
    assert all(m.summarizer.fallbacks == 0 for m in memories)


def test_a_reader_never_sees_half_an_apply(pool):
    """While a result is applied, messages() shows either the old state (no summary,
    every message) or the new one (summary, the batch gone), never a mix."""
    llm = GatedLlm()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=1, executor=pool)
    add_turns(memory, range(2))
    assert llm.started.wait(TIMEOUT)
    future = memory.in_flight
    llm.release.set()
    seen = set()
    while not future.done():
        messages = memory.messages()
        seen.add((messages[0].role.value, len(messages)))
    seen.add((memory.messages()[0].role.value, len(memory.messages())))
    assert seen <= {("user", 4), ("system", 3)} and ("system", 3) in seen


def test_a_result_for_a_cleared_memory_is_dropped(pool):
    """clear() during a compression: the late result is not applied."""
    llm = GatedLlm()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=1, executor=pool)
    add_turns(memory, range(2))
    assert llm.started.wait(TIMEOUT)
    future = memory.in_flight
    memory.clear()
    llm.release.set()
    assert future.result(TIMEOUT) is False
    assert memory.wait().compression_count == 0 and memory.messages() == []


def test_a_failing_summarizer_in_the_background_falls_back_and_loses_nothing(pool):
    """The model call fails on the pool thread: the fallback summary is applied."""
    llm = GatedLlm(fail=True)
    llm.release.set()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=1, executor=pool)
    add_turns(memory, range(2))
    state = memory.wait()
    document = StructuredSummary.from_text(state.text)
    assert memory.summarizer.fallbacks == 1 and state.covered_up_to == 2
    assert document["goal"] == ('user asked: "question 0 about order 88230"',)
    assert "88230" in state.text


def test_wait_returns_at_once_when_nothing_is_due(pool):
    """No compression due: nothing is submitted and wait() returns the state."""
    memory = BackgroundSummaryChatMemory(GatedLlm(), keep_recent_turns=4, executor=pool)
    add_turns(memory, range(3))
    assert memory.in_flight is None and memory.wait().compression_count == 0


class PowerCut(BaseException):
    """Not an Exception: the summarizer's fallback cannot catch it."""


class CrashingLlm:
    """Blocks each call until `release` is set, then raises PowerCut."""

    def __init__(self):
        self.calls, self.release = 0, threading.Event()

    def chat(self, messages, tools=None):
        self.calls += 1
        assert self.release.wait(TIMEOUT), "the test never released the summarizer"
        raise PowerCut


def test_a_crashing_compression_is_not_retried_in_a_loop(pool):
    """A compression that raises frees its slot and stops (its future holds the
    error); the next turn tries again: one call per attempt, no retry storm."""
    llm = CrashingLlm()
    memory = BackgroundSummaryChatMemory(llm, keep_recent_turns=1, batch_turns=1,
                                     executor=pool)
    for attempt in (1, 2):
        llm.release.clear()
        add_turns(memory, [attempt * 10, attempt * 10 + 1])
        future = memory.in_flight  # started by the turns just added, still blocked
        assert future is not None
        llm.release.set()
        with pytest.raises(PowerCut):
            future.result(TIMEOUT)
        memory.wait()  # nothing left in flight: returns at once
        assert llm.calls == attempt and memory.in_flight is None
    assert all(f"answer {n}" in str(memory.messages()) for n in (10, 11, 20, 21))


def test_a_save_that_fails_once_frees_the_slot_and_compression_runs_again(pool):
    """on_apply (a store save) raises once: the error reaches that future only;
    in_flight is reset, wait() does not raise it again, the next turn compresses."""
    saved, failures = [], [RuntimeError("disk full")]

    def save(state):
        if failures:
            raise failures.pop()
        saved.append(state)

    memory = BackgroundSummaryChatMemory(GatedLlm(), keep_recent_turns=1, executor=pool)
    memory.summarizer.llm.release.set()
    memory.on_apply = save
    add_turns(memory, [1, 2])
    with pytest.raises(RuntimeError, match="disk full"):
        memory.in_flight.result(TIMEOUT)
    assert memory.in_flight is None
    memory.wait()  # the old error is not raised again
    add_turns(memory, [3])
    memory.wait()
    assert [state.version for state in saved] == [2]


SLOW_EXIT = """
import sys, time
from tinyagent.chat_model import ChatResponse
from tinyagent.messages import ChatMessage
from tinyagent.production import BackgroundSummaryChatMemory

class SlowModel:
    def chat(self, messages, tools=None):
        time.sleep(60)
        return ChatResponse("{}")

memory = BackgroundSummaryChatMemory(SlowModel(), keep_recent_turns=1)
for n in range(2):
    memory.add(ChatMessage.user(f"question {n}"))
    memory.add(ChatMessage.assistant(f"answer {n}"))
assert memory.in_flight is not None and not memory.in_flight.done()
"""


def test_a_process_exits_promptly_with_a_slow_compression_in_flight():
    """The model takes 60 s; the process ends its script and exits within seconds,
    abandoning the result (it is recomputed from the stored turns next time)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", SLOW_EXIT], timeout=30,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("budget", [120, 2_000])
def test_the_summary_budget_reaches_the_summarizer(budget):
    """BackgroundSummaryChatMemory takes the same summary budget as the memory it
    runs in the background, and hands it to its summarizer."""
    memory = BackgroundSummaryChatMemory(LlmClient(offline=True),
                                     max_summary_tokens=budget)
    assert memory.summarizer.max_summary_tokens == budget


def test_wait_waits_for_a_compression_that_an_add_is_starting(pool):
    """wait() called while another thread's add() is starting a compression
    returns only after that compression: it reads the slot under the lock."""
    memory = BackgroundSummaryChatMemory(LlmClient(offline=True), keep_recent_turns=1,
                                     batch_turns=1, executor=pool)
    planning, original = threading.Event(), memory.plan

    def slow_plan():
        batch = original()
        if batch is not None:  # a compression is about to start
            planning.set()
            time.sleep(0.3)  # add() holds the lock meanwhile
        return batch

    add_turns(memory, range(1))  # one turn: nothing due yet
    memory.plan = slow_plan
    adder = threading.Thread(target=add_turns, args=(memory, [1]))
    adder.start()
    assert planning.wait(TIMEOUT)
    assert memory.wait().compression_count == 1
    adder.join(TIMEOUT)


@pytest.mark.parametrize("chars", [0, -1, None, "1400", 1.5])
def test_a_bad_max_summary_chars_is_refused_at_construction(chars):
    """max_summary_chars 0, -1, None, "1400", 1.5: ValueError at once naming it,
    never a summary shrunk to its ids or a TypeError inside a turn."""
    with pytest.raises(ValueError, match="max_summary_chars"):
        BackgroundSummaryChatMemory(LlmClient(offline=True), max_summary_chars=chars)


def reference_plan(messages, keep_recent_turns, batch_turns):
    """plan_batch as first written: split every turn, then count."""
    from tinyagent.memory.turns import split_turns
    from tinyagent.production.incremental import is_complete

    turns = split_turns(messages)
    if turns and not is_complete(turns[-1]):
        turns.pop()
    due = turns[: max(len(turns) - keep_recent_turns, 0)][:batch_turns]
    return sum(len(turn) for turn in due)


KINDS = {"user": ChatMessage.user("q"), "answer": ChatMessage.assistant("a"),
         "call": ChatMessage.assistant("", [ToolCall("c1", "queryOrder", {})]),
         "result": ChatMessage.tool("c1", "{}"),
         "summary": ChatMessage.system("- s")}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list(KINDS)), max_size=30), st.integers(0, 5),
       st.integers(1, 4))
def test_planning_from_both_ends_plans_what_splitting_every_turn_did(kinds, keep,
                                                                     batch):
    """plan_batch reads only the turns that stay (from the newest end) and the due
    ones (from the oldest): for any conversation, it plans exactly what splitting
    the whole conversation into turns planned."""
    from tinyagent.production.incremental import plan_batch

    messages = deque(KINDS[k] for k in kinds)
    assert plan_batch(messages, keep, batch) == reference_plan(messages, keep, batch)


class Counted(deque):
    """A deque that counts the messages read from it, from either end."""

    read = 0

    def __iter__(self):
        for message in super().__iter__():
            Counted.read += 1
            yield message

    def __reversed__(self):
        for message in super().__reversed__():
            Counted.read += 1
            yield message


@pytest.mark.parametrize("backlog", [10, 2_000])
def test_planning_reads_the_same_few_messages_however_far_behind(backlog):
    """A background memory far behind holds thousands of due turns; planning the
    next batch reads the kept turns and one batch, never the backlog: add() stays
    O(1) amortised (python -m tinyagent.course.soak --adds 100000 times it)."""
    from tinyagent.production.incremental import plan_batch

    messages = Counted(m for n in range(backlog) for m in turn(n))
    Counted.read = 0
    assert plan_batch(messages, keep_recent_turns=4, batch_turns=6) == 12
    assert Counted.read <= 2 * (4 + 6 + 2)  # two messages a turn, and one more
