"""scripts/chat_template.py: the local server's tool-call format, both directions."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import chat_template as ct  # noqa: E402

from tinyagent.tools import bitmall_tools  # noqa: E402

# SmolLM2-Instruct's template as its GGUF file carries it: plain ChatML, no tools.
CHATML = ("{% for message in messages %}{% if loop.first and messages[0]['role'] != "
          "'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named "
          "SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' "
          "+ message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
          "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
          "{% endif %}")
NAMES = {"queryOrder", "getCurrentTime"}
TOOLS = bitmall_tools().schemas()


def test_tools_are_described_in_the_system_turn_of_the_models_own_template():
    """The rendered prompt is the model's ChatML, the tools and the call format in
    its system turn, ending where the assistant's reply begins."""
    messages = ct.template_messages([{"role": "system", "content": "You are a clerk."},
                                     {"role": "user", "content": "Hi"}], TOOLS)
    prompt = ct.render(CHATML, messages)
    assert prompt.startswith("<|im_start|>system\nYou are a clerk.\n\nYou can call")
    assert "- queryOrder(order_id: string): Look up an order" in prompt
    assert prompt.endswith("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")


def test_no_html_escaping_anywhere():
    """Quotes and angle brackets reach the model as they are, never as &#34;."""
    messages = ct.template_messages([{"role": "user", "content": 'say "<hi>" & go'}],
                                    [])
    prompt = ct.render(CHATML + "{{ messages | tojson }}", messages)
    assert 'say "<hi>" & go' in prompt
    assert "&#34;" not in prompt and "&lt;" not in prompt


def test_a_past_tool_call_is_written_in_the_format_the_model_is_asked_to_use():
    """An assistant message's tool_calls become <tool_call>{...}</tool_call> text,
    and parsing that text gives the same name and arguments back."""
    call = {"id": "c1", "type": "function", "function": {
        "name": "queryOrder", "arguments": '{"order_id": "88231"}'}}
    [message] = ct.template_messages([{"role": "assistant", "content": None,
                                       "tool_calls": [call]}], [])
    content, [parsed] = ct.parse(message["content"], NAMES)
    assert content is None and parsed["function"] == call["function"]


@pytest.mark.parametrize("text", [
    '<tool_call>{"name": "queryOrder", "arguments": {"order_id": "88231"}}</tool_call>',
    '<tool_call>\n[{"name": "queryOrder", "arguments": {"order_id": "88231"}}]',
    '{"name": "queryOrder", "arguments": "{\\"order_id\\": \\"88231\\"}"}',
    '<tool_call>{"name": "queryOrder", "parameters": {"order_id": "88231"}}'])
def test_calls_are_parsed_in_every_shape_a_small_model_writes(text):
    """Tagged (closed or cut at the stop word), a list, a bare object, arguments as
    a JSON string or under "parameters": one OpenAI tool call with an id."""
    content, calls = ct.parse(text, NAMES)
    assert content is None and len(calls) == 1 and calls[0]["id"].startswith("call_")
    assert json.loads(calls[0]["function"]["arguments"]) == {"order_id": "88231"}


@pytest.mark.parametrize("text", [
    "Your order 88231 is on its way.",
    '<tool_call>{"name": "launchRocket", "arguments": {}}</tool_call>',
    '<tool_call>{"name": "queryOrder", "arguments": {"order_id":',
    '{"answer": "hello"}'])
def test_anything_else_is_left_as_the_models_text(text):
    """Prose, an unknown tool, broken JSON: no tool call, the text unchanged."""
    assert ct.parse(text, NAMES) == (text, [])


def test_call_ids_are_unique():
    """Two replies with the same call get different ids: the agent pairs results
    with calls by id."""
    text = '<tool_call>{"name": "getCurrentTime", "arguments": {}}</tool_call>'
    assert ct.parse(text, NAMES)[1][0]["id"] != ct.parse(text, NAMES)[1][0]["id"]
