"""tinyagent: the package behind the TinyAgent Memory course.

Each name below is introduced by one notebook; its module docstring says which.
Importing is cheap: tiktoken and openai load on first use. One thing besides the
names: in a notebook, a memory shows as a table, which display.py draws.
"""

from .agent import SYSTEM_PROMPT, SYSTEM_PROMPT_ZH, ReActAgent, TurnNotSavedError
from .chat_model import ChatResponse, LlmError, Usage
from .display import draw_memories_in_notebooks
from .lang import get_lang, set_lang
from .llm import LlmClient
from .memory import (
    ChatMemory,
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
)
from .messages import ChatMessage, Role, ToolCall, clip
from .tokens import count_message_tokens, count_messages_tokens, count_tokens
from .tools import Tool, ToolRegistry, bitmall_tools
from .trace import RunTrace, StopReason

__all__ = [
    "SYSTEM_PROMPT", "SYSTEM_PROMPT_ZH", "ChatMemory", "ChatMessage", "ChatResponse",
    "HybridChatMemory", "InMemoryChatMemory", "LlmClient", "LlmError", "ReActAgent",
    "Role", "RunTrace", "SlidingWindowChatMemory", "StopReason", "SummaryChatMemory",
    "TokenWindowChatMemory", "Tool", "ToolCall", "ToolRegistry", "TurnNotSavedError",
    "Usage", "bitmall_tools", "clip", "count_message_tokens", "count_messages_tokens",
    "count_tokens", "get_lang", "set_lang",
]
__version__ = "0.1.0"

draw_memories_in_notebooks()  # in a notebook, a memory shows as a table (display.py)
