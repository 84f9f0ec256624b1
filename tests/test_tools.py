"""Rules of the tool registry and the six BitMall tools (tinyagent/tools/store.py)."""

import json
import re

import pytest

from tinyagent.messages import ToolCall
from tinyagent.tools import Tool, ToolRegistry, bitmall_tools


def run(registry, name, **arguments):
    return json.loads(registry.run(ToolCall("call_1", name, arguments)))


def test_six_tools_with_schemas():
    """bitmall_tools() offers the six tools, each with a function schema."""
    registry = bitmall_tools()
    assert registry.names() == ["queryOrder", "queryLogistics", "applyRefund",
                                "searchKnowledge", "getCurrentTime", "searchProducts"]
    assert all(s["type"] == "function" and s["function"]["parameters"]["type"] ==
               "object" for s in registry.schemas())


@pytest.mark.parametrize("order_id,product,status", [
    ("88231", "BitMall S10 Pro Robot Vacuum", "delivered"),
    ("90417", "BitMall AirX Earbuds", "in transit"),
    ("55107", "BitMall BandPro Fitness Band", "delivered"),
    ("73820", "BitMall S10 Lite Robot Vacuum", "paid, not shipped"),
    ("61554", "BitMall S20 Pro Robot Vacuum", "delivered"),
])
def test_query_order_matches_the_store(order_id, product, status):
    """queryOrder returns each order of the store."""
    result = run(bitmall_tools(), "queryOrder", order_id=order_id)
    assert (result["product"], result["status"]) == (product, status)


def test_unknown_order_is_a_result_not_an_exception():
    """An unknown order number gives a readable 'not found' result."""
    assert run(bitmall_tools(), "queryOrder", order_id="12345")["error"] == (
        "order 12345 not found")


def test_logistics_of_88231():
    """88231's shipment has the store's three events, oldest first."""
    events = run(bitmall_tools(), "queryLogistics", order_id="88231")["events"]
    assert [e["time"] for e in events] == [
        "2026-06-20 18:20", "2026-06-21 09:10", "2026-06-22 11:35"]
    assert "Shanghai" in events[1]["event"] and "signed" in events[2]["event"]


def test_refund_numbers_follow_the_clock_and_a_sequence():
    """Refund numbers are RF + the clock's date + a 3-digit sequence, one per order."""
    registry = bitmall_tools()
    first = run(registry, "applyRefund", order_id="88231", reason="won't dock")
    second = run(registry, "applyRefund", order_id="55107", reason="changed my mind")
    again = run(registry, "applyRefund", order_id="88231", reason="again")
    assert first["refund_id"] == "RF20260701001"
    assert second["refund_id"] == "RF20260701002"
    assert again["refund_id"] == "RF20260701001" and "already" in again["note"]


def test_refund_status_follows_the_7_day_rule():
    """Inside 7 days from the day after delivery: approved; past it: inspection."""
    registry = bitmall_tools()
    assert run(registry, "applyRefund", order_id="55107")["status"] == "approved"
    assert run(registry, "applyRefund", order_id="88231")["status"] == (
        "pending inspection")
    assert run(registry, "applyRefund", order_id="73820")["status"] == "approved"


def test_each_registry_has_its_own_store():
    """A refund in one registry does not exist in a fresh one."""
    run(bitmall_tools(), "applyRefund", order_id="88231")
    assert run(bitmall_tools(), "applyRefund", order_id="90417")["refund_id"] == (
        "RF20260701001")


def test_knowledge_and_products():
    """Help articles and the catalog answer the scenario's questions."""
    registry = bitmall_tools()
    assert "1–3 business days" in run(registry, "searchKnowledge",
                                      query="refund time")["results"][0]["text"]
    assert run(registry, "searchKnowledge", query="退款多久到账")["results"]
    s20 = run(registry, "searchProducts", query="S20 Pro")["results"]
    assert [(p["name"], p["price"]) for p in s20] == [
        ("BitMall S20 Pro Robot Vacuum", 2499)]
    new = run(registry, "searchProducts", query="new robot vacuum")["results"]
    assert {p["name"] for p in new} == {"BitMall S20 Pro Robot Vacuum",
                                        "BitMall S20 Max Robot Vacuum"}
    assert run(registry, "getCurrentTime") == {"now": "2026-07-01 10:00:00 +08:00"}


@pytest.mark.parametrize("call,message", [
    (ToolCall("c", "nope", {}), "unknown tool 'nope'"),
    (ToolCall("c", "queryOrder", {}), "missing required argument(s): order_id"),
    (ToolCall("c", "queryOrder", {"__raw__": "{bad"}), "not valid JSON"),
    (ToolCall("c", "queryOrder", {"order_id": "1", "x": 1}), "unknown argument(s): x"),
    (ToolCall("c", "queryOrder", {"order_id": [1]}), "must be a string"),
])
def test_bad_calls_become_readable_results(call, message):
    """Unknown tools and bad arguments come back as an error result, not a raise."""
    assert message in json.loads(bitmall_tools().run(call))["error"]


def test_a_number_for_a_string_is_forgiven():
    """order_id=88231 (a number) works like "88231": models often send numbers."""
    assert run(bitmall_tools(), "queryOrder", order_id=88231)["order_id"] == "88231"


def test_a_tool_exception_becomes_a_result():
    """An exception inside a tool is reported to the model, not raised."""
    def broken() -> str:
        raise RuntimeError("database down")
    registry = ToolRegistry([Tool("broken", "always fails", broken)])
    result = json.loads(registry.run(ToolCall("c", "broken", {})))
    assert result["error"] == "broken failed: RuntimeError: database down"


def test_duplicate_tool_names_are_rejected():
    """Registering two tools with one name is an error naming the tool."""
    tool = Tool("t", "d", lambda: "x")
    with pytest.raises(ValueError, match="'t' is already registered"):
        ToolRegistry([tool, tool])


def test_tool_repr_has_no_address():
    """A Tool prints without its function's memory address (notebooks print it)."""
    assert "0x" not in repr(bitmall_tools()._tools["queryOrder"])


def test_schema_tokens_are_counted_once(monkeypatch):
    """The schemas' token count is cached until a tool is registered."""
    from tinyagent.tools import registry as module
    registry = bitmall_tools()
    first = registry.schema_tokens()
    monkeypatch.setattr(module, "count_tools_tokens", lambda tools: 1)
    assert registry.schema_tokens() == first
    registry.register(Tool("extra", "d", lambda: "x"))
    assert registry.schema_tokens() == 1


def test_each_registry_has_its_own_shop():
    """bitmall_tools() builds a fresh BitMall each time: a refund made through one
    registry is unknown to the next, which numbers its first refund 001 again."""
    from tinyagent.tools import BitMall

    shop = BitMall()
    first = shop.apply_refund("88231")
    assert shop.apply_refund("88231")["note"] == "a refund was already requested"
    assert BitMall().apply_refund("88231")["refund_id"] == first["refund_id"]
    assert first["refund_id"].endswith("001")


def test_the_chinese_store_describes_its_tools_in_chinese():
    """lang="zh": the same tools and arguments, described in Chinese for the model."""
    english, chinese = bitmall_tools().schemas(), bitmall_tools(lang="zh").schemas()
    assert [s["function"]["name"] for s in english] == [
        s["function"]["name"] for s in chinese]
    for en, zh in zip(english, chinese, strict=True):
        parameters = en["function"]["parameters"], zh["function"]["parameters"]
        assert parameters[0].keys() == parameters[1].keys()
        assert re.search(r"[\u4e00-\u9fff]", zh["function"]["description"])
