"""The checkers of notebooks 00–02: a correct answer passes, a plausible slip fails."""

import json

import pytest

from tinyagent.exercises import check
from tinyagent.messages import ChatMessage


@pytest.fixture(autouse=True)
def quiet(capsys):
    """The checkers print a line per case; these tests read only the verdict."""
    yield
    capsys.readouterr()


# -- 00.no_progress
def jaccard(a, b):
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def no_progress(thoughts):
    last = [t.strip() for t in thoughts if t.strip()][-3:]
    return len(last) == 3 and all(jaccard(a, b) >= 0.7 for i, a in enumerate(last)
                                  for b in last[i + 1:])


def test_no_progress_reference_passes():
    """The last three non-blank thoughts, every pair at Jaccard >= 0.7."""
    assert check("00.no_progress", no_progress)


def _neighbours_only(thoughts):
    last = [t for t in thoughts if t.strip()][-3:]
    return len(last) == 3 and all(jaccard(last[i], last[i + 1]) >= 0.7 for i in (0, 1))


def _strictly_above(thoughts):
    last = [t for t in thoughts if t.strip()][-3:]
    return len(last) == 3 and all(jaccard(a, b) > 0.7 for a in last for b in last
                                  if a is not b)


def _keeps_blanks(thoughts):
    last = thoughts[-3:]
    return len(last) == 3 and all(jaccard(a, b) >= 0.7 for a in last for b in last)


def _first_three(thoughts):
    first = [t for t in thoughts if t.strip()][:3]
    return len(first) == 3 and all(jaccard(a, b) >= 0.7 for a in first for b in first)


@pytest.mark.parametrize("wrong", [_neighbours_only, _strictly_above, _keeps_blanks,
                                   _first_three],
                         ids=["neighbours-only", "strictly-above", "keeps-blanks",
                              "first-three"])
def test_no_progress_slips_fail(wrong):
    """Neighbours only, > instead of >=, counting blanks or the first three fail."""
    assert not check("00.no_progress", wrong)


# -- 00.same_signature
def same_signature(calls_a, calls_b):
    def signatures(calls):
        return sorted(f"{c.name}({json.dumps(c.arguments, sort_keys=True)})"
                      for c in calls)
    return signatures(calls_a) == signatures(calls_b)


def test_same_signature_reference_passes():
    """Sorted name+canonical-arguments strings, ids ignored, duplicates counted."""
    assert check("00.same_signature", same_signature)


@pytest.mark.parametrize("wrong", [
    lambda a, b: list(a) == list(b),
    lambda a, b: sorted(c.name for c in a) == sorted(c.name for c in b),
    lambda a, b: {c.signature() for c in a} == {c.signature() for c in b},
    lambda a, b: [c.signature() for c in a] == [c.signature() for c in b],
], ids=["compares-ids-too", "names-only", "sets-lose-counts", "order-matters"])
def test_same_signature_slips_fail(wrong):
    """Comparing whole ToolCalls (ids), names only, sets, or unsorted lists fails."""
    assert not check("00.same_signature", wrong)


# -- 01.build_messages
def build_messages(system, history, user_text):
    return [ChatMessage.system(system), *history, ChatMessage.user(user_text)]


def test_build_messages_reference_passes():
    """System prompt, then the history in order, then the new question: a new list."""
    assert check("01.build_messages", build_messages)


def _appends(system, history, user_text):
    history.append(ChatMessage.user(user_text))
    return [ChatMessage.system(system), *history]


@pytest.mark.parametrize("wrong", [
    lambda s, h, u: [ChatMessage.system(s), ChatMessage.user(u)],
    lambda s, h, u: [*h, ChatMessage.system(s), ChatMessage.user(u)],
    _appends,
    lambda s, h, u: [{"role": "system", "content": s}, *[m.to_dict() for m in h],
                     {"role": "user", "content": u}],
], ids=["stateless", "system-after-history", "mutates-history", "dicts"])
def test_build_messages_slips_fail(wrong):
    """Dropping the history, misplacing the system prompt, mutating or dicts fail."""
    assert not check("01.build_messages", wrong)


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


def test_my_memory_reference_passes():
    """A list per instance, appended in add, copied in messages, emptied in clear."""
    assert check("02.my_memory", ListMemory)


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


@pytest.mark.parametrize("wrong", [NoCopy, SharedList, NewestFirst, Forgetful],
                         ids=["no-copy", "shared-list", "newest-first", "keeps-last"])
def test_my_memory_slips_fail(wrong):
    """Handing out the list itself, a shared list, wrong order or keeping one fails."""
    assert not check("02.my_memory", wrong)


def test_the_stubs_read_as_not_yet(capsys):
    """The notebooks' stubs (raise NotImplementedError) fail every case, no crash."""
    def stub(*args):
        raise NotImplementedError

    class StubMemory:
        def add(self, message):
            raise NotImplementedError

        def messages(self):
            raise NotImplementedError

        def clear(self):
            raise NotImplementedError

    for name, candidate in [("00.no_progress", stub), ("00.same_signature", stub),
                            ("01.build_messages", stub), ("02.my_memory", StubMemory)]:
        assert not check(name, candidate)
        assert "not yet — keep going." in capsys.readouterr().out
