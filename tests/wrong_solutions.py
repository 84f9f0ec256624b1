"""A catalogue of plausible wrong solutions, one list per exercise.

Each entry is (id, code, the case that must fail first). They are the slips a learner
makes: an off-by-one at a boundary, a shared or mutated list, a summary that appends
instead of replacing, a memory that writes one dialog's facts in by hand.
Each checker module's test file (test_exercises_nb03.py for nb03.py) asserts that
each is rejected and names that case; the official solutions are read from the
solutions notebooks (test_exercise_catalogue.py).
"""

import importlib
import json
from pathlib import Path

from tinyagent import (
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
)
from tinyagent.memory.entities import find_ids, keep_ids
from tinyagent.memory.fence import SUMMARY_FOOTER, SUMMARY_HEADER, summary_message
from tinyagent.memory.summarizer import PROMPT, fallback_summary
from tinyagent.memory.transcript import render
from tinyagent.memory.turns import split_turns
from tinyagent.messages import ChatMessage, Role
from tinyagent.production import CompactChatMemory
from tinyagent.production.incremental import SummaryState
from tinyagent.tokens import count_message_tokens


# -- 00.no_progress
def jaccard(a, b):
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _pairs_alike(last, op=lambda x: x >= 0.7, measure=jaccard):
    return len(last) == 3 and all(op(measure(a, b)) for i, a in enumerate(last)
                                  for b in last[i + 1:])


def _multiset(a, b):
    """Jaccard over characters counted with repeats: not the guard's measure."""
    from collections import Counter
    both, either = Counter(a) & Counter(b), Counter(a) | Counter(b)
    return sum(both.values()) / max(sum(either.values()), 1)


NO_PROGRESS = [
    ("neighbours-only", lambda t: (lambda last: len(last) == 3 and all(
        jaccard(last[i], last[i + 1]) >= 0.7 for i in (0, 1)))(
        [x for x in t if x.strip()][-3:]), "every pair must be alike"),
    ("strictly-above", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                              lambda j: j > 0.7), "exactly 0.7"),
    ("keeps-blanks", lambda t: _pairs_alike(t[-3:]), "blank thoughts are skipped"),
    ("first-three", lambda t: _pairs_alike([x for x in t if x.strip()][:3]),
     "only the last three"),
    ("true-when-short", lambda t: len([x for x in t if x.strip()]) < 3
     or _pairs_alike([x for x in t if x.strip()][-3:]), "fewer than three"),
    ("blanks-after-slicing", lambda t: _pairs_alike([x for x in t[-3:] if x.strip()]),
     "blank thoughts are skipped"),
    ("above-0.69", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                          lambda j: j > 0.69), "near 0.7"),
    ("rounded-jaccard", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                               lambda j: round(j, 1) >= 0.7),
     "every pair must be alike"),
    ("rounded-to-2", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                            lambda j: round(j, 2) >= 0.69),
     "near 0.7"),
    ("rounded-to-2-at-0.7", lambda t: _pairs_alike(
        [x for x in t if x.strip()][-3:], lambda j: round(j, 2) >= 0.7), "near 0.7"),
    ("lowercased", lambda t: _pairs_alike([x.lower() for x in t if x.strip()][-3:]),
     "another case"),
    ("above-0.71", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                          lambda j: j >= 0.71), "exactly 0.7"),
    # found by learners, or tried on the drawn inputs: none names a fixed input
    ("pairs-1-2-and-1-3", lambda t: (lambda last: len(last) == 3 and jaccard(
        last[0], last[1]) >= 0.7 and jaccard(last[0], last[2]) >= 0.7)(
        [x for x in t if x.strip()][-3:]), "every pair must be alike"),
    ("pairs-1-3-and-2-3", lambda t: (lambda last: len(last) == 3 and jaccard(
        last[0], last[2]) >= 0.7 and jaccard(last[1], last[2]) >= 0.7)(
        [x for x in t if x.strip()][-3:]), "drawn lists"),
    ("multiset-jaccard", lambda t: _pairs_alike([x for x in t if x.strip()][-3:],
                                                measure=_multiset), "drawn lists"),
    ("last-four", lambda t: (lambda last: len(last) >= 3 and all(
        jaccard(a, b) >= 0.7 for i, a in enumerate(last) for b in last[i + 1:]))(
        [x for x in t if x.strip()][-4:]), "only the last three"),
    ("words-not-characters", lambda t: _pairs_alike(
        [x.split() for x in t if x.strip()][-3:]), "exactly 0.7"),
]

# -- 00.same_signature
SAME_SIGNATURE = [
    ("compares-ids-too", lambda a, b: list(a) == list(b),
     "the same call with a new id"),
    ("names-only", lambda a, b: sorted(c.name for c in a) == sorted(c.name for c in b),
     "another order number"),
    ("sets-lose-counts", lambda a, b: {c.signature() for c in a}
     == {c.signature() for c in b}, "that call twice"),
    ("order-matters", lambda a, b: [c.signature() for c in a]
     == [c.signature() for c in b], "any order"),
    ("unsorted-json", lambda a, b: sorted(f"{c.name}{json.dumps(c.arguments)}"
                                          for c in a)
     == sorted(f"{c.name}{json.dumps(c.arguments)}" for c in b), "argument order"),
    ("set-and-length", lambda a, b: len(a) == len(b) and {c.signature() for c in a}
     == {c.signature() for c in b}, "other numbers"),
    ("subset", lambda a, b: {c.signature() for c in a} <= {c.signature() for c in b}
     and bool(a) == bool(b), "that call twice"),
    ("names-and-args-apart", lambda a, b: sorted(c.name for c in a)
     == sorted(c.name for c in b) and sorted(json.dumps(c.arguments, sort_keys=True)
                                             for c in a)
     == sorted(json.dumps(c.arguments, sort_keys=True) for c in b), "paired otherwise"),
    ("sorted-by-name-only", lambda a, b: [c.signature() for c in sorted(
        a, key=lambda c: c.name)] == [c.signature() for c in sorted(
            b, key=lambda c: c.name)], "two calls of one tool"),
    ("values-as-text", lambda a, b: sorted(c.name + json.dumps(
        {k: str(v) for k, v in c.arguments.items()}, sort_keys=True) for c in a)
     == sorted(c.name + json.dumps({k: str(v) for k, v in c.arguments.items()},
                                   sort_keys=True) for c in b), "drawn pairs"),
    ("first-three-calls", lambda a, b: sorted(c.signature() for c in a[:3])
     == sorted(c.signature() for c in b[:3]), "drawn pairs"),
    ("nested-keys-in-order", lambda a, b: sorted(
        c.name + str(sorted(c.arguments.items())) for c in a) == sorted(
        c.name + str(sorted(c.arguments.items())) for c in b), "drawn pairs"),
]


# -- 00.what_to_remember
def _is_answer(m):
    return m.role is Role.ASSISTANT and not m.tool_calls


def _user_or_answer(m):
    return m.role is Role.USER or _is_answer(m)


def _drops_in_place(messages):
    messages[:] = [m for m in messages if _user_or_answer(m)]
    return messages


WHAT_TO_REMEMBER = [
    ("keeps-tool-calls", lambda ms: [m for m in ms if m.role in (Role.USER,
                                                                 Role.ASSISTANT)],
     "a turn with tool calls"),
    ("keeps-non-empty-assistant", lambda ms: [m for m in ms if m.role is Role.USER or (
        m.role is Role.ASSISTANT and m.content)], "a turn with tool calls"),
    ("keeps-system", lambda ms: [m for m in ms if m.role is Role.SYSTEM
                                 or _user_or_answer(m)], "a turn without tools"),
    ("last-turn-only", lambda ms: [m for m in ms if _user_or_answer(m)][-2:],
     "what a message says"),
    ("mutates-input", _drops_in_place, "a turn without tools"),
    ("filters-on-ill", lambda ms: [m for m in ms if m.role is Role.USER or (
        m.role is Role.ASSISTANT and "I'll" not in m.content
        and "我先" not in m.content)], "a turn"),
    ("filters-on-words", lambda ms: [m for m in ms if m.role is Role.USER or (
        m.role is Role.ASSISTANT and m.content.startswith(("A", "答")))],
     "a turn without tools"),
    ("generator", lambda ms: (m for m in ms if _user_or_answer(m)), "a turn"),
    ("returns-input-when-clean", lambda ms: ms if all(map(_user_or_answer, ms))
     else [m for m in ms if _user_or_answer(m)], "nothing to remember"),
    ("skips-empty-answers", lambda ms: [m for m in ms if m.role is Role.USER or (
        _is_answer(m) and m.content)], "drawn dialogs"),
    ("skips-the-first-message", lambda ms: [m for m in ms[1:] if _user_or_answer(m)],
     "drawn dialogs"),
    ("last-fifty", lambda ms: [m for m in ms if _user_or_answer(m)][-50:],
     "drawn dialogs"),
]


# -- 01.build_messages
def _appends(system, history, user_text):
    history.append(ChatMessage.user(user_text))
    return [ChatMessage.system(system), *history]


BUILD_MESSAGES = [
    ("stateless", lambda s, h, u: [ChatMessage.system(s), ChatMessage.user(u)],
     "it returns a list"),
    ("system-after-history", lambda s, h, u: [*h, ChatMessage.system(s),
                                              ChatMessage.user(u)],
     "it returns a list"),
    ("mutates-history", _appends, "the history list passed in"),
    ("dicts", lambda s, h, u: [{"role": "system", "content": s},
                               *[m.to_dict() for m in h],
                               {"role": "user", "content": u}], "it returns a list"),
    ("last-turn-only", lambda s, h, u: [ChatMessage.system(s), *h[-2:],
                                        ChatMessage.user(u)], "the whole history"),
    ("hard-coded-order", lambda s, h, u: [ChatMessage.system(s), ChatMessage.user(
        "Where is my order 88231?"), ChatMessage.user(u)], "it returns a list"),
    # the longest named history holds 10 messages: this passed the old checker
    ("last-ten", lambda s, h, u: [ChatMessage.system(s), *h[-10:], ChatMessage.user(u)],
     "drawn histories"),
    ("last-fifty", lambda s, h, u: [ChatMessage.system(s), *h[-50:],
                                    ChatMessage.user(u)], "drawn histories"),
    ("drops-repeats", lambda s, h, u: [ChatMessage.system(s), *dict.fromkeys(h),
                                       ChatMessage.user(u)], "drawn histories"),
]


# -- 02.my_memory
class ListMemory:
    def __init__(self):
        self._messages = []

    def add(self, message):
        self._messages.append(message)

    def messages(self):
        return list(self._messages)

    def clear(self):
        self._messages.clear()


class NoCopy(ListMemory):
    def messages(self):
        return self._messages


class SharedList(ListMemory):
    shared = []

    def __init__(self):
        self._messages = SharedList.shared


class NewestFirst(ListMemory):
    def add(self, message):
        self._messages.insert(0, message)


class Forgetful(ListMemory):
    def add(self, message):
        self._messages = [message]


class LastThree(ListMemory):
    """An "unbounded" memory that keeps only the last 3: it passed the old checker."""

    def add(self, message):
        self._messages = (self._messages + [message])[-3:]


class LastTwenty(ListMemory):
    def add(self, message):
        self._messages = (self._messages + [message])[-20:]


def fresh(code):
    """A wrong solution as a fresh kernel has it: SharedList's class-level list is
    empty again, so one test's run cannot change what the next run sees."""
    if isinstance(getattr(code, "shared", None), list):
        code.shared.clear()
    SHARED_HYBRID.clear()
    return code


class CapsAt40(ListMemory):
    def add(self, message):
        self._messages = (self._messages + [message])[-40:]


class CapsAt50(ListMemory):
    def add(self, message):
        self._messages = (self._messages + [message])[-50:]


class NoDuplicates(ListMemory):
    def add(self, message):
        if message not in self._messages:
            self._messages.append(message)


class NoConsecutiveDuplicates(ListMemory):
    def add(self, message):
        if message not in self._messages[-2:]:
            self._messages.append(message)


class DequeOf1000(ListMemory):
    def __init__(self):
        from collections import deque
        self._messages = deque(maxlen=1000)

    def messages(self):
        return list(self._messages)


class NoCopyPast100(ListMemory):
    def messages(self):
        return self._messages if len(self._messages) > 100 else list(self._messages)


class ClearKeepsLast(ListMemory):
    def clear(self):
        self._messages = self._messages[-1:]


MY_MEMORY = [
    ("no-copy", NoCopy, "messages() returns a copy"),
    ("shared-list", SharedList, "it is unbounded"),
    ("newest-first", NewestFirst, "messages() gives back"),
    ("keeps-last-one", Forgetful, "messages() gives back"),
    ("keeps-last-three", LastThree, "messages() gives back"),
    ("keeps-last-twenty", LastTwenty, "it is unbounded"),
    ("caps-at-40", CapsAt40, "it is unbounded"),
    ("caps-at-50", CapsAt50, "it is unbounded"),
    ("drops-duplicates", NoDuplicates, "the same message twice"),
    ("drops-repeats-nearby", NoConsecutiveDuplicates, "the same message twice"),
    # only 250 messages were added by the old checker: this passed it
    ("deque-of-1000", DequeOf1000, "drawn runs"),
    ("no-copy-past-100", NoCopyPast100, "drawn runs"),
    ("clear-keeps-the-last", ClearKeepsLast, "clear() empties it"),
]


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


class LastMessages(RoundsWindowMemory):
    def add(self, message):
        self._messages = (self._messages + [message])[-2 * self.max_rounds:]


class OneTooMany(RoundsWindowMemory):
    def add(self, message):
        self._messages.append(message)
        turns = split_turns(self._messages)
        self._messages = [m for t in turns[-self.max_rounds - 1:] for m in t]


class OneTooFew(RoundsWindowMemory):
    def add(self, message):
        self._messages.append(message)
        turns = split_turns(self._messages)
        if len(turns) >= self.max_rounds:
            self._messages = [m for t in turns[-self.max_rounds + 1:] for m in t] \
                if self.max_rounds > 1 else turns[-1]


class NoCheck(RoundsWindowMemory):
    def __init__(self, max_rounds):
        self.max_rounds, self._messages = max(max_rounds, 1), []


class HandsOutList(RoundsWindowMemory):
    def messages(self):
        return self._messages


class ChecksZeroOnly(RoundsWindowMemory):
    def __init__(self, max_rounds):
        if max_rounds == 0:
            raise ValueError("max_rounds must not be 0")
        self.max_rounds, self._messages = max_rounds, []


class RefusesOne(RoundsWindowMemory):
    def __init__(self, max_rounds):
        if max_rounds < 2:
            raise ValueError(f"max_rounds must be >= 2, got {max_rounds}")
        self.max_rounds, self._messages = max_rounds, []


class TrimsOnRead(RoundsWindowMemory):
    """Stores every message and slices when read: bounded only on the outside."""

    def add(self, message):
        self._messages.append(message)

    def messages(self):
        return [m for t in split_turns(self._messages)[-self.max_rounds:] for m in t]


class UserListTrimsOnRead(TrimsOnRead):
    def __init__(self, max_rounds):
        from collections import UserList
        super().__init__(max_rounds)
        self._messages = UserList()

    def messages(self):
        return [m for t in split_turns(list(self._messages))[-self.max_rounds:]
                for m in t]


class NestedTrimsOnRead(RoundsWindowMemory):
    class Log:
        def __init__(self):
            self.pages = {"all": {"items": []}}

    def __init__(self, max_rounds):
        super().__init__(max_rounds)
        self.log = NestedTrimsOnRead.Log()

    def add(self, message):
        self.log.pages["all"]["items"].append(message)

    def messages(self):
        kept = split_turns(self.log.pages["all"]["items"])[-self.max_rounds:]
        return [m for t in kept for m in t]

    def clear(self):
        self.log = NestedTrimsOnRead.Log()


class Keeps1000Behind(TrimsOnRead):
    def add(self, message):
        self._messages = (self._messages + [message])[-1000:]


class CapsAt20Rounds(RoundsWindowMemory):
    def __init__(self, max_rounds):
        super().__init__(min(max_rounds, 20))


class LongTurnsCountTwice(RoundsWindowMemory):
    """A turn of more than four messages counted as two rounds."""

    def add(self, message):
        self._messages.append(message)
        room, kept = self.max_rounds, []
        for turn in reversed(split_turns(self._messages)):
            cost = 2 if len(turn) > 4 else 1
            if kept and room < cost:
                break
            room, kept = room - cost, turn + kept
        self._messages = kept


ROUNDS_WINDOW = [
    ("counts-messages", LastMessages, "exactly max_rounds turns"),
    ("off-by-one-over", OneTooMany, "exactly max_rounds turns"),
    ("off-by-one-under", OneTooFew, "exactly max_rounds turns"),
    ("no-value-check", NoCheck, "max_rounds=0"),
    ("no-copy", HandsOutList, "messages() returns a copy"),
    ("accepts-minus-one", ChecksZeroOnly, "max_rounds=0"),
    ("refuses-one", RefusesOne, "max_rounds=0"),
    ("trims-on-read", TrimsOnRead, "it stores only the window"),
    # kept whole in a structure the old checker did not look into: it passed
    ("user-list-trims-on-read", UserListTrimsOnRead, "it stores only the window"),
    ("nested-trims-on-read", NestedTrimsOnRead, "it stores only the window"),
    ("keeps-1000-behind", Keeps1000Behind, "it stores only the window"),
    ("caps-at-20-rounds", CapsAt20Rounds, "drawn dialogs"),
    ("long-turns-count-twice", LongTurnsCountTwice, "drawn dialogs"),
]


# -- 03.token_window
def _window(messages, max_tokens, fits=lambda used, budget: used <= budget,
            keep_newest=True):
    kept, used = [], 0
    for turn in reversed(split_turns(messages)):
        size = sum(count_message_tokens(m) for m in turn)
        if (kept or not keep_newest) and not fits(used + size, max_tokens):
            break
        kept, used = turn + kept, used + size
    return kept


def per_message(messages, max_tokens):
    kept = list(messages)
    while len(kept) > 1 and sum(count_message_tokens(m) for m in kept) > max_tokens:
        kept.pop(0)
    return kept


def oldest_first(messages, max_tokens):
    kept, used = [], 0
    for turn in split_turns(messages):
        size = sum(count_message_tokens(m) for m in turn)
        if used + size > max_tokens:
            break
        kept, used = kept + turn, used + size
    return kept


def pops_input(messages, max_tokens):
    while len(split_turns(messages)) > 1 and sum(
            count_message_tokens(m) for m in messages) > max_tokens:
        del messages[:len(split_turns(messages)[0])]
    return messages


def mutates_when_over(messages, max_tokens):
    """Correct, except that a newest turn over budget is cut out of the argument."""
    turns = split_turns(messages)
    if turns and sum(map(count_message_tokens, turns[-1])) > max_tokens:
        del messages[:-len(turns[-1])]
        return list(messages)
    return _window(messages, max_tokens)


def request_tokens(messages, max_tokens):
    """Measures each turn as a request (count_messages_tokens adds the priming)."""
    from tinyagent.tokens import count_messages_tokens
    kept, used = [], 0
    for turn in reversed(split_turns(messages)):
        size = count_messages_tokens(turn)
        if kept and used + size > max_tokens:
            break
        kept, used = turn + kept, used + size
    return kept


TOKEN_WINDOW = [
    ("strict-less-than", lambda m, b: _window(m, b, lambda u, x: u < x),
     "a budget that fits everything"),
    ("cuts-messages", per_message, "the result fits in max_tokens"),
    ("drops-newest-too", lambda m, b: _window(m, b, keep_newest=False),
     "a newest turn bigger"),
    ("keeps-oldest", oldest_first, "the result fits in max_tokens"),
    ("mutates-input", pops_input, "a budget that fits everything"),
    ("skips-too-big-turns", lambda m, b: [x for t in split_turns(m)
                                          if sum(map(count_message_tokens, t)) <= b
                                          for x in t], "the result fits in max_tokens"),
    ("ten-turns-at-most", lambda m, b: (lambda kept: [x for t in split_turns(kept)[-10:]
                                                      for x in t])(_window(m, b)),
     "drawn dialogs"),
    ("budget-capped-at-2000", lambda m, b: _window(m, min(b, 2000)), "drawn dialogs"),
]


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


def oldest_turn_only(messages, threshold, keep_recent):
    turns = split_turns(messages)
    if len(messages) < threshold or len(turns) < 2:
        return 0
    return len(turns[0]) if len(messages) - len(turns[0]) >= keep_recent else 0


def keeps_too_little(messages, threshold, keep_recent):
    if len(messages) < threshold:
        return 0
    return sum(len(turn) for turn in split_turns(messages)[:-1])


def two_or_four(messages, threshold, keep_recent):
    """Sizes a turn 4 if it has a tool call, else 2: right on the named dialogs."""
    if len(messages) < threshold:
        return 0
    cut = 0
    for turn in split_turns(messages):
        size = 4 if any(m.tool_calls for m in turn) else 2
        if len(messages) - cut - size < keep_recent:
            break
        cut += size
    return cut


SUMMARY_TRIGGER = [
    ("cuts-mid-turn", lambda m, t, k: len(m) - k if len(m) >= t else 0,
     "at least keep_recent"),
    ("fires-one-late", lambda m, t, k: plan_compression(m, t + 1, k),
     "exactly at the threshold"),
    ("one-turn-a-time", oldest_turn_only, "exactly at the threshold"),
    ("ignores-keep-recent", keeps_too_little, "exactly at the threshold"),
    ("fixed-keep-4", lambda m, t, k: plan_compression(m, t, 4), "at least keep_recent"),
    ("turns-of-two-or-four", two_or_four, "one long turn"),
    ("never-more-than-60", lambda m, t, k: min(plan_compression(m, t, k), 60),
     "drawn dialogs"),
]


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
    return keep_ids(text or fallback_summary(previous, overflow),
                    find_ids(request[1].content))


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
    return keep_ids(text or fallback_summary(previous, overflow),
                    find_ids(request[1].content))


def appends_request(llm, previous, overflow):
    """The whole request appended to the reply: ~10,000 tokens after 50 turns."""
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    return (text or fallback_summary(previous, overflow)) + "\n" + request[1].content


def appends_previous(llm, previous, overflow):
    return "\n".join(filter(None, [previous, merge_summary(llm, None, overflow)]))


def unguarded_fallback(llm, previous, overflow):
    """Guards the model's reply, not the fallback: ids past its clip are lost."""
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    if not text:
        return fallback_summary(previous, overflow)
    return keep_ids(text, find_ids(request[1].content))


def old_summary_and_ids(llm, previous, overflow):
    """On failure: the old summary and an ids line; the new requests are lost."""
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    return keep_ids(text or previous or "", find_ids(request[1].content))


def renders_on_failure(llm, previous, overflow):
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except Exception:
        text = ""
    return keep_ids(text or f"{previous or ''}\n{render(overflow)}",
                    find_ids(request[1].content))


def catches_only_llm_error(llm, previous, overflow):
    """A timeout (an OSError) still escapes."""
    from tinyagent import LlmError
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content.strip()
    except LlmError:
        text = ""
    return keep_ids(text or fallback_summary(previous, overflow),
                    find_ids(request[1].content))


def reply_not_stripped(llm, previous, overflow):
    request = _request(previous, overflow)
    try:
        text = llm.chat(request).content
    except Exception:
        text = ""
    return keep_ids(text if text.strip() else fallback_summary(previous, overflow),
                    find_ids(request[1].content))


MERGE_STEP = [
    ("not-incremental", from_scratch, "the request holds the previous summary"),
    ("no-entity-guard", no_guard, "a reply that drops the numbers"),
    ("no-fallback", raises_on_failure, "a failing model does not raise"),
    ("prints-None", says_none, "first merge"),
    ("appends-the-request", appends_request, "it returns the model's summary"),
    ("appends-previous", appends_previous, "the request holds the previous summary"),
    ("unguarded-fallback", unguarded_fallback, "a failing model keeps the new"),
    ("old-summary-and-ids", old_summary_and_ids, "a failing model keeps the new"),
    # bounded only with a working model, so the old checker let it through
    ("renders-on-failure", renders_on_failure, "drawn chains"),
    ("catches-only-llm-error", catches_only_llm_error, "drawn chains"),
    ("reply-not-stripped", reply_not_stripped, "drawn chains"),
]


# -- 06.tune_hybrid
class HardCodedFacts(HybridChatMemory):
    """Seed 0's three facts written in, instead of the summary."""

    def __init__(self, llm):
        super().__init__(llm, 2, 6)

    def messages(self):
        facts = "- order 61554, tracking SF2233445566, refund RF20260701001"
        return [ChatMessage.system(facts)] + [m for m in super().messages()
                                              if m.role is not Role.SYSTEM]


class HidesItsCost(HybridChatMemory):
    """Compresses every turn, and reports no summarizer tokens in stats()."""

    def __init__(self, llm):
        super().__init__(llm, 2, 3)

    def stats(self):
        return {**super().stats(), "summarizer_tokens": 0}


class IdsOnly(HybridChatMemory):
    """Calls the model as it should, then keeps only the ids of what it wrote."""

    def __init__(self, llm):
        super().__init__(llm, 2, 8)
        real = self.summarizer.summarize

        def summarize(previous, messages):
            real(previous, messages)
            return keep_ids("", find_ids(f"{previous or ''}\n{render(messages)}"))
        self.summarizer.summarize = summarize


SHARED_HYBRID = {}


def shared_hybrid(llm):
    """One memory for every conversation: made once, handed out each time."""
    return SHARED_HYBRID.setdefault("memory", HybridChatMemory(llm, 2, 8))


def own_model(llm):
    """Ignores the model it is given: its summaries are paid by nobody."""
    from tinyagent import LlmClient
    return HybridChatMemory(LlmClient(offline=True), 2, 8)


class OwnModelNoCount(HybridChatMemory):
    """Summarizes with a model of its own and says it never compressed: its cost
    would go uncounted."""

    def __init__(self, llm):
        from tinyagent import LlmClient
        super().__init__(LlmClient(offline=True), 2, 8)

    @property
    def compression_count(self):
        return 0

    @compression_count.setter
    def compression_count(self, value):
        self._hidden = value


class SaysNothingUseful(HybridChatMemory):
    """A summarizer that writes one vague line (the guard adds the ids)."""

    def __init__(self, llm):
        super().__init__(llm, 2, 8)
        real = self.summarizer.summarize

        def summarize(previous, messages):
            real(previous, messages)
            return keep_ids("The customer chatted about some orders today.",
                            find_ids(f"{previous or ''}\n{render(messages)}"))
        self.summarizer.summarize = summarize


TUNE_HYBRID = [
    ("the-table-4-8", lambda llm: HybridChatMemory(llm, 4, 8), "peak prompt tokens"),
    ("compresses-every-turn", lambda llm: HybridChatMemory(llm, 2, 3),
     "tokens sent"),
    ("hides-its-cost", HidesItsCost, "tokens sent"),
    ("ids-only-summary", IdsOnly, "every planted id and fact is recalled"),
    ("one-shared-memory", shared_hybrid, "each call gives a new"),
    ("ignores-the-llm", own_model, "every planted id and fact is recalled"),
    ("hard-codes-seed-0", HardCodedFacts, "each call gives a new"),
    ("not-a-hybrid", lambda llm: InMemoryChatMemory(),
     "it returns a HybridChatMemory"),
    # ids only prove little: both passed the old checker, each recalling 0/4 facts
    ("summary-budget-60", lambda llm: HybridChatMemory(
        llm, 4, 8, max_summary_tokens=60), "every planted id and fact"),
    ("says-nothing-useful", SaysNothingUseful, "every planted id and fact"),
    ("own-model-and-no-count", OwnModelNoCount, "every planted id and fact"),
]


# -- 06.cheapest_recall
def cheapest_by_rule(llm, turns, rule):
    """A sound decision (the worked solution's crossovers), to build slips on."""
    if rule == "deepseek":
        return InMemoryChatMemory()
    if rule == "openai":
        return InMemoryChatMemory() if turns < 50 else CompactChatMemory.for_rule(
            llm, rule)
    if rule == "qwen":
        return InMemoryChatMemory() if turns < 30 else CompactChatMemory.for_rule(
            llm, rule)
    return InMemoryChatMemory() if turns <= 8 else SummaryChatMemory(llm, 10, 4)


CHEAPEST_RECALL = [
    ("always-in-memory", lambda llm, turns, rule: InMemoryChatMemory(),
     "14 turns, the 'none' rule"),
    ("always-the-default-hybrid", lambda llm, turns, rule: HybridChatMemory(llm, 6, 10),
     "30 turns, the 'openai' rule"),
    ("a-window", lambda llm, turns, rule: SlidingWindowChatMemory(6), "6 turns"),
    ("no-memory", lambda llm, turns, rule: None, "6 turns"),
    # tried on 6 and 30 turns only, it passed the old checker
    ("in-memory-at-6-else-summary", lambda llm, turns, rule: InMemoryChatMemory()
     if turns == 6 else SummaryChatMemory(llm, 10, 4), "30 turns, the 'openai' rule"),
    ("a-window-for-short-chats", lambda llm, turns, rule: SlidingWindowChatMemory(6)
     if turns <= 6 else cheapest_by_rule(llm, turns, rule), "6 turns"),
    ("ignores-the-cache-rule", lambda llm, turns, rule: InMemoryChatMemory()
     if turns <= 8 else SummaryChatMemory(llm, 10, 4), "30 turns, the 'openai' rule"),
    ("crossover-at-20", lambda llm, turns, rule: InMemoryChatMemory() if turns <= 20
     else SummaryChatMemory(llm, 10, 4), "14 turns, the 'none' rule"),
    ("no-cache-crossover-too-late", lambda llm, turns, rule: InMemoryChatMemory()
     if rule == "none" and turns <= 16 else cheapest_by_rule(llm, turns, rule),
     "14 turns, the 'none' rule"),
    ("compact-even-without-a-cache", lambda llm, turns, rule:
     CompactChatMemory.for_rule(llm, rule) if turns > 8 else InMemoryChatMemory(),
     "14 turns, the 'none' rule"),
]


# -- 08.cap_items
def cap_items(items, max_items=6, max_chars=80):
    kept = [i if len(i) <= max_chars else i[: max_chars - 1] + "…"
            for i in items if i.strip()]
    return kept[-max_items:] if max_items > 0 else []


def mutates(items, max_items=6, max_chars=80):
    while len(items) > max_items:
        items.pop(0)
    return cap_items(items, max_items, max_chars)


def cap_in_place(items, max_items=6, max_chars=80):
    """Returns the caller's list when nothing needs cutting."""
    if len(items) <= max_items and all(i.strip() and len(i) <= max_chars
                                       for i in items):
        return items
    return cap_items(items, max_items, max_chars)


CAP_ITEMS = [
    ("returns-the-argument", cap_in_place, "a short section"),
    ("generator", lambda items, max_items=6, max_chars=80: (
        i for i in cap_items(items, max_items, max_chars)), "a short section"),
    ("caps-at-80-not-max", lambda items, max_items=6, max_chars=80: [
        i if len(i) < max_chars else i[: max_chars - 1] + "…"
        for i in items if i.strip()][-max_items:] if max_items else [],
     "exactly 80"),
    ("max-items-one-off", lambda items, max_items=6, max_chars=80: cap_items(
        items, 10**6, max_chars)[-max_items:] if max_items > 1 else [],
     "max_items=0"),
    ("keeps-oldest", lambda items, max_items=6, max_chars=80: cap_items(
        items, 10**6, max_chars)[:max_items], "eight items"),
    ("no-ellipsis", lambda items, max_items=6, max_chars=80: [
        i[:max_chars] for i in items if i.strip()][-max_items:], "longer than 80"),
    ("mutates", mutates, "eight items"),
    ("fixed-caps", lambda items, max_items=6, max_chars=80: cap_items(items),
     "max_items=0"),
    ("slices-before-dropping-blanks", lambda items, max_items=6, max_chars=80: [
        i if len(i) <= max_chars else i[: max_chars - 1] + "…"
        for i in items[-max_items:] if i.strip()], "blanks are dropped before"),
    ("minus-zero-slice", lambda items, max_items=6, max_chars=80: cap_items(
        items, 10**6, max_chars)[-max_items:], "max_items=0"),
    ("clips-at-81", lambda items, max_items=6, max_chars=80: [
        i if len(i) <= max_chars + 1 else i[:max_chars] + "…"
        for i in items if i.strip()][-max_items:] if max_items else [],
     "longer than 80"),
    ("at-most-ten-items", lambda items, max_items=6, max_chars=80: cap_items(
        items, min(max_items, 10), max_chars), "drawn sections"),
    ("words-not-characters", lambda items, max_items=6, max_chars=80: [
        i if len(i) <= max_chars else i[:max_chars - 1].rsplit(" ", 1)[0] + "…"
        for i in items if i.strip()][-max_items:] if max_items else [],
     "longer than 80"),
]


# -- 09.apply_if_current
def apply_if_current(state, planned_version, batch_size, text):
    if planned_version != state.version:
        return state  # the summary moved on since the batch was planned: stale
    return SummaryState(text, state.covered_up_to + batch_size,
                        state.compression_count + 1, state.version + 1)


APPLY_IF_CURRENT = [
    ("always-applies", lambda s, v, n, t: SummaryState(
        t, s.covered_up_to + n, s.compression_count + 1, s.version + 1),
     "planned before another compression"),
    ("older-only", lambda s, v, n, t: s if v < s.version
     else apply_if_current(s, s.version, n, t), "newer version is stale"),
    ("forgets-covered", lambda s, v, n, t: s if v != s.version else SummaryState(
        t, n, s.compression_count + 1, s.version + 1),
     "a batch planned at the current"),
    ("fixed-batch", lambda s, v, n, t: apply_if_current(s, v, 4, t),
     "the first compression"),
    ("versions-within-one", lambda s, v, n, t: s if v < s.version
     or abs(v - s.version) > 1 else apply_if_current(s, s.version, n, t),
     "newer version is stale"),
    ("counts-capped-at-50", lambda s, v, n, t: (lambda r: SummaryState(
        r.text, min(r.covered_up_to, 50), r.compression_count, r.version))(
        apply_if_current(s, v, n, t)), "drawn states"),
]


# -- 09.restore
def restore(snapshot, transcript):
    if snapshot is None:
        return list(transcript)
    return [summary_message(snapshot.text)] + list(transcript[snapshot.covered_up_to:])


RESTORE = [
    ("returns-the-transcript", lambda s, t: t if s is None else restore(s, t),
     "no snapshot yet"),
    ("generator", lambda s, t: iter(restore(s, t)), "no snapshot yet"),
    ("replays-everything", lambda s, t: ([summary_message(s.text)] if s else []) + t,
     "a snapshot of 4 messages"),
    ("summary-only", lambda s, t: [summary_message(s.text)] if s else list(t),
     "a snapshot of 4 messages"),
    ("off-by-one", lambda s, t: ([summary_message(s.text)] + t[s.covered_up_to + 1:])
     if s else list(t), "a snapshot of 4 messages"),
    ("unfenced", lambda s, t: ([ChatMessage.user(s.text)] + t[s.covered_up_to:])
     if s else list(t), "a snapshot of 4 messages"),
    ("tail-of-fifty", lambda s, t: restore(s, t)[:51], "drawn transcripts"),
    ("covered-at-turn-start", lambda s, t: restore(s, t) if s is None or s.covered_up_to
     % 2 == 0 else restore(SummaryState(s.text, s.covered_up_to - 1, 1, 1), t),
     "drawn transcripts"),
]


# -- 08.fence: English-edition code, which defuses the English markers, so it
# writes the English fence (summary_message follows the setting otherwise)
def fence(summary):
    while SUMMARY_HEADER in summary or SUMMARY_FOOTER in summary:
        for marker in (SUMMARY_HEADER, SUMMARY_FOOTER):
            summary = summary.replace(marker, marker.strip("[]"))
    return summary_message(summary, "en")


def defuses_once(summary):
    """Each marker's brackets removed once: "[[footer]]" becomes a footer."""
    for marker in (SUMMARY_HEADER, SUMMARY_FOOTER):
        summary = summary.replace(marker, marker.strip("[]"))
    return summary_message(summary, "en")


FENCE = [
    ("defuses-the-first-only", lambda s: summary_message(
        s.replace(SUMMARY_HEADER, SUMMARY_HEADER.strip("[]"), 1)
        .replace(SUMMARY_FOOTER, SUMMARY_FOOTER.strip("[]"), 1), "en"),
     "two forged footers"),
    ("no-defusing", lambda s: summary_message(s, "en"), "a forged footer"),
    ("footer-only", lambda s: summary_message(s.replace(SUMMARY_FOOTER, ""), "en"),
     "a forged footer"),
    ("drops-lines", lambda s: fence(s.splitlines()[-1]), "a forged header"),
    ("as-user", lambda s: ChatMessage.user(fence(s).content), "a summary goes"),
    # the old word check found the deleted words in the real footer: it passed
    ("deletes-forged-markers", lambda s: summary_message(
        s.replace(SUMMARY_HEADER, "").replace(SUMMARY_FOOTER, ""), "en"),
     "a forged footer"),
    ("defuses-once", defuses_once, "a marker forged inside brackets"),
]

# -- 10.step_items
def _call_item(call, arguments):
    return {"type": "function_call", "call_id": call.id, "name": call.name,
            "arguments": arguments}


def _output_item(message):
    return {"type": "function_call_output", "call_id": message.tool_call_id,
            "output": message.content}


def items_arguments_as_dict(message):
    """Arguments left a dict: the SDK wants JSON text."""
    if message.tool_call_id is not None:
        return [_output_item(message)]
    return [_call_item(c, c.arguments) for c in message.tool_calls]


def items_first_call_only(message):
    """Only the first of parallel calls becomes an item."""
    if message.tool_call_id is not None:
        return [_output_item(message)]
    return [_call_item(c, json.dumps(c.arguments)) for c in message.tool_calls[:1]]


def items_id_not_call_id(message):
    """The call's id under "id": nothing pairs the output with it."""
    if message.tool_call_id is not None:
        return [_output_item(message)]
    return [{"type": "function_call", "id": c.id, "name": c.name,
             "arguments": json.dumps(c.arguments)} for c in message.tool_calls]


def items_output_as_call(message):
    """A tool result turned into a call item, as if every message were a call."""
    if message.tool_call_id is not None:
        return [{"type": "function_call", "call_id": message.tool_call_id,
                 "name": "tool", "arguments": message.content}]
    return [_call_item(c, json.dumps(c.arguments)) for c in message.tool_calls]


STEP_ITEMS = [
    ("arguments as a dict", items_arguments_as_dict, "one call"),
    ("first call only", items_first_call_only, "two calls"),
    ("id, not call_id", items_id_not_call_id, "one call"),
    ("output as a call", items_output_as_call, "a tool result"),
]

CATALOGUE = {
    "00.no_progress": NO_PROGRESS, "00.same_signature": SAME_SIGNATURE,
    "00.what_to_remember": WHAT_TO_REMEMBER, "01.build_messages": BUILD_MESSAGES,
    "02.my_memory": MY_MEMORY, "03.rounds_window": ROUNDS_WINDOW,
    "03.token_window": TOKEN_WINDOW, "04.summary_trigger": SUMMARY_TRIGGER,
    "05.merge_step": MERGE_STEP, "06.tune_hybrid": TUNE_HYBRID,
    "06.cheapest_recall": CHEAPEST_RECALL, "08.cap_items": CAP_ITEMS,
    "08.fence": FENCE, "09.apply_if_current": APPLY_IF_CURRENT, "09.restore": RESTORE,
    "10.step_items": STEP_ITEMS,
}
# A notebook's own catalogue may live beside this one (wrong_solutions_nb09.py,
# with a CATALOGUE of its own): it joins this one, so a new checker module plugs in.
for _path in sorted(Path(__file__).parent.glob("wrong_solutions_nb*.py")):
    CATALOGUE.update(importlib.import_module(_path.stem).CATALOGUE)
