"""This package's memories in the OpenAI Agents SDK: notebook 10, "Take it to your
framework".

items.py maps the SDK's items to messages and back; session.py is `MemorySession`,
the SDK's `Session` over any tinyagent memory (with pop_item as undo, and a store
when given one); agent.py is the BitMall clerk as an SDK `Agent`, offline by
default. It is the one part of tinyagent that imports the SDK (`pip install
openai-agents`, in the test extra); nothing below it does. Left out: the SDK's
Responses model, handoffs, guardrails and streaming.
"""

from .agent import RUN_CONFIG, async_client, bitmall_agent, function_tools
from .items import Item, from_items, to_items
from .session import MemorySession, whole_steps

__all__ = ["RUN_CONFIG", "Item", "MemorySession", "async_client", "bitmall_agent",
           "from_items", "function_tools", "to_items", "whole_steps"]
