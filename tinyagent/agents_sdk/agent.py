"""The BitMall clerk as an OpenAI Agents SDK `Agent`: offline by default, online as is.

Introduced in notebook 10. `bitmall_agent(llm)` builds an SDK `Agent` whose tools
are the BitMall tools (each `Tool` of the registry as an SDK `FunctionTool` with
the same JSON schema; errors go back to the model as text, as ReActAgent's do) and
whose model is the SDK's `OpenAIChatCompletionsModel` on an `openai.AsyncOpenAI`
client. Offline (no TINYAGENT_API_KEY) that client is served in the process by the
offline model (offline/async_transport.py): no key, no socket. With a key, the same
call reaches the provider `LlmClient.from_env()` names, with its model, timeout and
retries. `RUN_CONFIG` turns the SDK's tracing off: offline there is nowhere to
send it, and online it would send every conversation to OpenAI's trace service
whatever the provider. Left out: the http limits of llm.py's sync client
(a trickling reply is bounded by the timeout only), and streaming.
"""

from __future__ import annotations

import json
from typing import Any

from agents import Agent, FunctionTool, OpenAIChatCompletionsModel, RunConfig
from agents.tool_context import ToolContext
from openai import AsyncOpenAI

from ..agent import MEMORY_HINTS, SYSTEM_PROMPTS
from ..lang import get_lang
from ..llm import OFFLINE_BASE_URL, LlmClient
from ..messages import ToolCall, parse_arguments
from ..offline.async_transport import offline_async_http_client
from ..tools import ToolRegistry, bitmall_tools

RUN_CONFIG = RunConfig(tracing_disabled=True)  # Runner.run(..., run_config=RUN_CONFIG)


def async_client(llm: LlmClient) -> AsyncOpenAI:
    """An AsyncOpenAI for `llm`: the offline model in the process, or its provider."""
    if llm.offline:
        return AsyncOpenAI(api_key="offline", base_url=OFFLINE_BASE_URL,
                           max_retries=0,
                           http_client=offline_async_http_client(llm.cache_rule))
    return AsyncOpenAI(api_key=llm._api_key, base_url=llm.base_url,
                       timeout=llm.timeout, max_retries=llm.max_retries)


def function_tools(registry: ToolRegistry) -> list[FunctionTool]:
    """Each tool of `registry` as an SDK FunctionTool (same name, schema, code)."""
    def wrap(schema: dict[str, Any]) -> FunctionTool:
        name = schema["name"]

        async def invoke(context: ToolContext[Any], arguments: str) -> str:
            call_id = getattr(context, "tool_call_id", "") or name
            return registry.run(ToolCall(call_id, name, parse_arguments(arguments)))

        # strict_json_schema=False: the schemas are the package's, not the SDK's
        # strict dialect (optional fields stay optional).
        return FunctionTool(name=name, description=schema.get("description", ""),
                            params_json_schema=schema["parameters"],
                            on_invoke_tool=invoke, strict_json_schema=False)

    return [wrap(tool["function"]) for tool in registry.schemas()]


def bitmall_agent(llm: LlmClient | None = None, lang: str | None = None,
                  tools: ToolRegistry | None = None, *,
                  client: AsyncOpenAI | None = None) -> Agent[Any]:
    """The BitMall clerk for `Runner.run`: the package's system prompt (with the
    memory hint) as its instructions, the store in `lang`, `llm`'s model (through
    `client` when given: one that records its requests, say)."""
    llm = llm or LlmClient.from_env()
    lang = get_lang(lang)
    model = OpenAIChatCompletionsModel(model=llm.model,
                                       openai_client=client or async_client(llm))
    return Agent(name="BitMall", model=model,
                 instructions=f"{SYSTEM_PROMPTS.say(lang)}\n\n{MEMORY_HINTS.say(lang)}",
                 tools=function_tools(tools or bitmall_tools(lang=lang)))


def request_messages(body: bytes | str) -> list[dict[str, Any]]:
    """The messages of one recorded Chat Completions request body."""
    return list(json.loads(body)["messages"])
