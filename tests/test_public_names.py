"""Rules of the package's front door: what `import tinyagent` offers, and its cost."""

import subprocess
import sys

import tinyagent

# Names notebooks and the course import from tinyagent itself.
NAMES = ["ReActAgent", "RunTrace", "StopReason", "TurnNotSavedError", "SYSTEM_PROMPT",
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


PACKAGES = ["tinyagent.memory", "tinyagent.production", "tinyagent.storage",
            "tinyagent.course", "tinyagent.agents_sdk", "tinyagent.tools"]


def test_each_public_name_is_exported_from_one_package():
    """Below the front door (`tinyagent`, which gathers the course's core names),
    a public name is exported by one package only: the one that defines it, or, for
    a helper of a bare module (settings.py), the one package that offers it. No
    package re-exports the front door's or another package's names, and no old
    name stays as an alias."""
    import importlib

    homes: dict[str, list[str]] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            homes.setdefault(name, []).append(package)
            defined = getattr(getattr(module, name), "__module__", None) or package
            if not defined.startswith(package):
                assert name not in tinyagent.__all__, (package, name)
                assert not defined.startswith(tuple(PACKAGES)), (package, name)
    assert {n: p for n, p in homes.items() if len(p) > 1} == {}
    from tinyagent import memory, production
    for old in ("CompressedMemory", "SummaryState"):
        assert not hasattr(memory, old), old
    for old in ("IncrementalSummaryMemory", "BackgroundSummaryMemory", "SqliteStore",
                "SummaryState"):
        assert not hasattr(production, old), old
    assert not hasattr(importlib.import_module("tinyagent.production.restore"),
                       "restore")  # load_memory's old name
