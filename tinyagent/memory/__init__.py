"""Memory strategies: the ChatMemory contract and its implementations."""

from .base import BaseChatMemory, ChatMemory, drop_orphans, split_turns
from .in_memory import InMemoryChatMemory

__all__ = ["BaseChatMemory", "ChatMemory", "InMemoryChatMemory", "drop_orphans",
           "split_turns"]
