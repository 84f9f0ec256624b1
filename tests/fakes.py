"""Fakes and helpers shared by the memory tests: `from fakes import FakeLlm, chat, fed`.

A fake model answers summarizer calls without the offline model, so a test controls
the summary's text, its failures and its token usage."""

from tinyagent.chat_model import ChatResponse, Usage
from tinyagent.messages import ChatMessage


class FakeLlm:
    """A summarizer stand-in. `reply` is the text to answer (default "- summary N"
    for the Nth call), a function of the request's messages returning it, or an
    exception to raise. Usage is 20 + 5 tokens a call. Every request is recorded:
    `requests` holds (messages, tools), `seen` the transcript sent (the user part)."""

    def __init__(self, reply=None, usage=(20, 5)):
        self.reply, self.usage = reply, Usage(*usage)
        self.requests, self.seen = [], []

    def chat(self, messages, tools=None):
        self.requests.append((list(messages), tools))
        self.seen.append(messages[1].content)
        if isinstance(self.reply, BaseException):
            raise self.reply
        if callable(self.reply):
            text = self.reply(messages)
        else:
            text = f"- summary {len(self.seen)}" if self.reply is None else self.reply
        return ChatResponse(text, usage=self.usage)


def chat(turns, start=0):
    """A plain conversation: "question i" / "answer i" for i from `start`."""
    return [m for i in range(start, start + turns)
            for m in (ChatMessage.user(f"question {i}"),
                      ChatMessage.assistant(f"answer {i}"))]


def fed(memory, messages):
    """Add `messages` one by one; return the memory."""
    for message in messages:
        memory.add(message)
    return memory
