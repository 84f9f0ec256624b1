"""One agent turn in progress: the messages it adds, its tool calls, its guard counts.

Introduced in notebook 00 with the ReAct loop (agent.py), which reads as its steps
because the bookkeeping lives here: `Turn` keeps the array sent to the model, this
turn's own messages apart (the user message, then each step's call and results: what
memory may store), how many times in a row the model repeated its calls, and the
trace. `act` runs one step's tool calls and appends what the model observes. Left
out: running tools in parallel, and asking a person before a tool with effects runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .guards import CUT_NOTE, REPEAT_NOTICE, TOO_MANY_CALLS, no_progress, same_calls
from .lang import Lang, get_lang
from .messages import ChatMessage
from .trace import RunTrace, Step, StopReason

if TYPE_CHECKING:
    from .chat_model import ChatResponse
    from .tools.registry import ToolRegistry


@dataclass
class Turn:
    """The state of one `run()`: start it with `Turn.start(messages, question)`."""

    trace: RunTrace  # trace.messages is the whole array sent to the model
    own: list[ChatMessage]  # this turn's messages only, from the user's on
    lang: Lang  # the question's: notes to the model and apologies follow it
    repeats: int = 0  # steps in a row that made the previous step's calls again

    @classmethod
    def start(cls, messages: list[ChatMessage], question: str) -> Turn:
        """A turn whose array is `messages`, ending with the user's `question`."""
        return cls(RunTrace(question=question, messages=messages), [messages[-1]],
                   get_lang("auto", question))

    @property
    def messages(self) -> list[ChatMessage]:
        """The array the next model call is sent."""
        return self.trace.messages

    def add(self, message: ChatMessage) -> None:
        """Append `message` to the array and to this turn's own messages."""
        self.trace.messages.append(message)
        self.own.append(message)

    def record_usage(self, response: ChatResponse, tokens: int) -> None:
        """Log a model call's prompt tokens: the provider's count, else ours."""
        self.trace.prompt_tokens.append(response.usage.prompt_tokens or tokens)
        self.trace.cached_tokens.append(getattr(response.usage, "cached_tokens", 0))

    def take_reply(self, response: ChatResponse) -> StopReason:
        """Take a reply without tool calls as the turn's answer, and say how the
        turn ends: ANSWER; CUT_OFF, the answer marked as cut; or EMPTY_REPLY, which
        an apology replaces."""
        self.trace.answer = response.content
        if not response.content.strip():  # an empty reply is never the answer
            return StopReason.EMPTY_REPLY
        if response.finish_reason == "length":  # never stored as complete
            self.trace.answer += " " + CUT_NOTE.say(self.lang)
            return StopReason.CUT_OFF
        return StopReason.ANSWER

    def step(self, response: ChatResponse, limit: int) -> tuple[Step, int]:
        """The reply as a step of at most `limit` tool calls, and how many were
        refused; it goes into the trace and the repeat count."""
        previous = self.trace.steps[-1].tool_calls if self.trace.steps else []
        step = Step(response.content, list(response.tool_calls[:limit]))
        self.trace.steps.append(step)
        self.repeats = self.repeats + 1 if same_calls(previous, step.tool_calls) else 0
        return step, len(response.tool_calls) - len(step.tool_calls)

    def act(self, step: Step, tools: ToolRegistry, refused: int, limit: int) -> None:
        """Run the step's tool calls and append each result for the model to read.

        Only the calls run are sent back, so every call has its one result. A first
        repeat is not run: the model is told it already has that result.
        """
        self.add(ChatMessage.assistant(step.thought, step.tool_calls))
        for index, call in enumerate(step.tool_calls, 1):
            if self.repeats:
                result = REPEAT_NOTICE.say(self.lang).format(call=call.signature())
            else:
                result = tools.run(call)
                self.trace.tool_calls.append(call)
            if refused and index == len(step.tool_calls):  # the model learns why
                result += "\n" + TOO_MANY_CALLS.say(self.lang).format(
                    count=refused, limit=limit)
            step.results.append(result)
            self.add(ChatMessage.tool(call.id, result))

    def circling(self) -> bool:
        """The no-progress guard: the last three thoughts are alike."""
        return no_progress([step.thought for step in self.trace.steps])
