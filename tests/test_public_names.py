"""Rules of the package's front door: what `import tinyagent` offers, and its cost."""

import subprocess
import sys

import tinyagent

# Names notebooks and the course import from tinyagent itself.
NAMES = ["ReActAgent", "RunTrace", "TurnNotSavedError", "SYSTEM_PROMPT",
         "SYSTEM_PROMPT_ZH", "clip", "set_lang", "get_lang", "ChatMessage", "Role",
         "ChatMemory", "InMemoryChatMemory", "SlidingWindowChatMemory",
         "TokenWindowChatMemory", "SummaryChatMemory", "HybridChatMemory",
         "LlmClient", "ChatResponse", "ToolCall", "ToolRegistry", "bitmall_tools",
         "count_tokens", "count_message_tokens"]


def test_every_public_name_is_exported_and_listed():
    """Each name is an attribute of tinyagent and in its __all__ (so `import *` and
    the documentation see it), and is the object its home module defines."""
    from tinyagent import agent, lang, messages

    for name in NAMES:
        assert hasattr(tinyagent, name) and name in tinyagent.__all__, name
    assert tinyagent.TurnNotSavedError is agent.TurnNotSavedError
    assert tinyagent.clip is messages.clip and tinyagent.set_lang is lang.set_lang
    assert sorted(tinyagent.__all__) == sorted(set(tinyagent.__all__))


def test_importing_tinyagent_loads_neither_openai_nor_tiktoken():
    """`import tinyagent` stays light: the SDK and the tokenizer load on first use."""
    code = ("import sys, tinyagent; "
            "print(sorted({'openai', 'tiktoken'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
