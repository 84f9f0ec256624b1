"""tinyagent: the package behind the TinyAgent Memory course.

Each name below is introduced by one notebook; its module docstring says which.
Importing is cheap: tiktoken and openai load on first use.
"""

from .agent import ReActAgent, RunTrace
from .llm import ChatResponse, LlmClient, LlmError, Usage
from .memory import (
    ChatMemory,
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
)
from .messages import ChatMessage, Role, ToolCall
from .tokens import count_message_tokens, count_messages_tokens, count_tokens
from .tools import Tool, ToolRegistry, bitmall_tools

__all__ = [
    "ChatMemory", "ChatMessage", "ChatResponse", "HybridChatMemory",
    "InMemoryChatMemory", "LlmClient", "LlmError", "ReActAgent", "Role", "RunTrace",
    "SlidingWindowChatMemory", "SummaryChatMemory", "TokenWindowChatMemory", "Tool",
    "ToolCall", "ToolRegistry", "Usage", "bitmall_tools", "count_message_tokens",
    "count_messages_tokens", "count_tokens",
]
__version__ = "0.1.0"
