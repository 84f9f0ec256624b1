"""Damage done on purpose: `scripts/real_model_check.py --break NAME`.

A check that passes a broken agent proves nothing, so each way an agent has been
broken, or could be, is written down here, and the check must fail on every one of
them, each on the rule written for it (`BREAKS[name].rules`: the start of the FAIL
line it must print, or of one of them where a server may refuse the damage
first). tests/test_real_model_check.py runs them all, against the offline model
served over HTTP and, in CI, against the real server. Each break is a patch, undone
when the check ends. `strategies` says which memories show it: the check's `--only`
runs just those. Left out: breaks of the server itself (the faults,
real_model_faults.py, bend its replies instead).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

from tinyagent import ChatMessage, ReActAgent, Role
from tinyagent.memory.base import BaseChatMemory
from tinyagent.memory.summarizer import Summarizer, fallback_summary, render
from tinyagent.memory.turns import split_turns
from tinyagent.tools.registry import ToolRegistry

MEMORY, SUMMARY = "in-memory", "summary 4/2"  # the check's names of the two


@dataclass(frozen=True)
class Break:
    what: str  # what the damage is, in a few words
    rules: tuple[str, ...]  # the FAIL line the check prints starts with one of these
    strategies: tuple[str, ...]  # the memories whose run shows it
    patch: Callable[[], Any]  # returns the context manager that does the damage


def _agent(name: str, new: Callable[..., Any]) -> Callable[[], Any]:
    return lambda: mock.patch.object(ReActAgent, name, new)


def _history(change: Callable[[list[ChatMessage]], list[ChatMessage]]
             ) -> Callable[[], Any]:
    """A break of build_messages: `change` gets the request, returns what is sent."""
    build = ReActAgent.build_messages
    return _agent("build_messages", lambda agent, text: change(build(agent, text)))


def _messages(held: list[ChatMessage]) -> list[ChatMessage]:
    """A memory off by one: once it holds two turns, the newest is left out."""
    turns = split_turns(held)
    return held if len(turns) < 2 else [m for turn in turns[:-1] for m in turn]


def _summary(make: Callable[[Summarizer, str | None, list[ChatMessage]], str]
             ) -> Callable[[], Any]:
    return lambda: mock.patch.object(Summarizer, "summarize", make)


def _ignored(self: Summarizer, previous: str | None,
             messages: list[ChatMessage]) -> str:
    self.ask(previous, messages)  # the model is called, and what it says is dropped
    return fallback_summary(previous, messages)


ORIGINAL_SUMMARIZE = Summarizer.summarize


def _copy_after_first(self: Summarizer, previous: str | None,
                      messages: list[ChatMessage]) -> str:
    """A summarizer that, once it has a summary, hands it back unchanged."""
    return previous if previous else ORIGINAL_SUMMARIZE(self, previous, messages)


CALL_ID = "call_misfiled"


BREAKS: dict[str, Break] = {
    # the four the check was first written against
    "memory": Break("every memory's add() does nothing",
                    ("FAIL  turn 2 request holds the turns played",),
                    (MEMORY,), lambda: mock.patch.object(BaseChatMemory, "add",
                                                         lambda self, m: None)),
    "summarizer": Break("every summary is '- the weather is nice'",
                        ("FAIL  a summary the model wrote is stored",), (SUMMARY,),
                        _summary(lambda self, previous, messages:
                                 "- the weather is nice")),
    "history": Break("the agent sends the system prompt and the question only",
                     ("FAIL  turn 2 request holds the turns played",), (MEMORY,),
                     _history(lambda sent: [sent[0], sent[-1]])),
    "question": Break("the newest user turn is dropped from the request",
                      ("FAIL  turn 1 request carries what memory held",), (MEMORY,),
                      _history(lambda sent: sent[:-1])),
    "echo": Break("the summary is the summarizer's input, unchanged",
                  ("FAIL  a summary the model wrote is stored",), (SUMMARY,),
                  _summary(lambda self, previous, messages: render(messages))),
    "ignored": Break("the summarizer calls the model, then stores its own merge",
                     ("FAIL  a summary the model wrote is stored",), (SUMMARY,),
                     _summary(_ignored)),
    "answers": Break("the answers are never stored, only the questions",
                     ("FAIL  turn 2 request holds the turns played",), (MEMORY,),
                     _agent("_remember", lambda agent, own, answer:
                            agent.memory.add(own[0]))),
    # the three it passed before its requests were read against the turns played
    "offbyone": Break("a memory drops its newest turn once it holds two",
                      ("FAIL  turn 3 request holds the turns played",), (MEMORY,),
                      lambda: mock.patch.object(BaseChatMemory, "messages",
                                                lambda self: _messages(
                                                    list(self._messages)))),
    "ok": Break("tool results reach the model as 'OK'",
                ("FAIL  turn 1 sends each tool result as the tool returned it",),
                (MEMORY,), lambda: mock.patch.object(ToolRegistry, "run",
                                                     lambda self, call: "OK")),
    "reversed": Break("the history is sent newest first",
                      ("FAIL  turn 2 request holds the turns played",), (MEMORY,),
                      _history(lambda sent: [sent[0], *sent[-2:0:-1], sent[-1]])),
    # more of our own
    "copy": Break("once there is a summary, the summarizer hands it back unchanged",
                  ("FAIL  a summary the model wrote is stored",), (SUMMARY,),
                  _summary(_copy_after_first)),
    "misfiled": Break("every tool result is sent under an id no call has",
                      ("FAIL  turn 1 sends each tool result as the tool returned it",
                       # a server that checks ids refuses the request instead
                       "FAIL  turn 1 ends without an error: LlmError: model call "
                       "failed: HTTP 400"),
                      (MEMORY,), lambda: mock.patch.object(
                          ChatMessage, "tool", lambda call_id, content: ChatMessage(
                              Role.TOOL, content, CALL_ID))),
    "twice": Break("every history message is sent twice",
                   ("FAIL  turn 2 request holds the turns played",), (MEMORY,),
                   _history(lambda sent: [sent[0], *[m for m in sent[1:-1]
                                                     for _ in (1, 2)], sent[-1]])),
    "unfolded": Break("the summary is left out of the request",
                      ("FAIL  turn 3 request carries what memory held",), (SUMMARY,),
                      _history(lambda sent: [ChatMessage.system(
                          sent[0].content.split("\n\n")[0]), *sent[1:]])),
}


BREAKS["reply"] = Break(  # bent by the proxy (real_model_strategies.py): no patch
    "the first reply has a tool call whose function is null",
    ("FAIL  turn 1 ends without an error",), (MEMORY,),
    contextlib.nullcontext)


def broken(name: str) -> contextlib.ExitStack:
    """The damage `--break name` does ('' for none), undone when the stack closes."""
    stack = contextlib.ExitStack()
    if name:
        stack.enter_context(BREAKS[name].patch())
    return stack
