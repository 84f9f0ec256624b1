"""Rules of notebook 08's eviction ladder: settled facts go before open ones (what
every budget keeps, bounded means bounded, is tested over both in test_budget.py)."""


from tinyagent.memory.budget import IDS_LINE
from tinyagent.memory.entities import find_ids
from tinyagent.production.eviction import fit
from tinyagent.tokens import count_tokens

SUMMARY = "\n".join([
    "- Order 88231: S10 Pro, delivered 2026-06-22, SF Express SF1234567890",
    "- Refund RF20260701001: order 88231, ¥1999, pending inspection",
    "- Policy: approved refunds reach the original payment method in 1–3 days",
    "- Product S20 Pro: ¥2499, launch offer: ¥200 off until 2026-07-15",
    "- Order 90417: AirX Earbuds, in transit, YTO Express YT5566778899"])


def test_oldest_resolved_fact_goes_first_and_its_ids_stay():
    """Over budget, the oldest resolved line goes first; its ids move to the ids
    line; the open matters (pending refund, order in transit) stay whole."""
    fitted = fit(SUMMARY, count_tokens(SUMMARY) - 5, find_ids)
    assert fitted.evicted == [SUMMARY.splitlines()[0]]
    assert fitted.text.endswith(f"{IDS_LINE}SF1234567890")
    assert "pending inspection" in fitted.text and "in transit" in fitted.text


def test_open_matters_and_their_ids_are_kept_longest():
    """At a tight budget every resolved fact and id has gone before an open one."""
    fitted = fit(SUMMARY, 45, find_ids)
    assert "RF20260701001" in fitted.text or "YT5566778899" in fitted.text
    assert "S20 Pro" not in fitted.text and "SF1234567890" not in fitted.text
    assert fitted.evicted[:3] == [SUMMARY.splitlines()[i] for i in (0, 2, 3)]


def test_the_ids_line_cannot_take_over_the_summary():
    """The guard's ids line holds at most a quarter of the budget: oldest ids go."""
    ids = ", ".join(str(10000 + i) for i in range(200))
    products = "\n".join(f"- Product S{i} Pro: ¥{1000 + i}" for i in range(20))
    fitted = fit(f"{products}\n{IDS_LINE}{ids}", 200, find_ids)
    line = fitted.text.splitlines()[-1]
    assert count_tokens(line) <= 50 and line.endswith("10199")
    assert fitted.evicted[0] == "10000"
    assert "- Product S19 Pro: ¥1019" in fitted.text


def test_a_line_of_items_loses_its_oldest_item_first():
    """A resolved line of several items ("- Products: a; b; c") loses its first,
    oldest item, not the whole line; the newest items stay."""
    line = "- Products: S20 Pro ¥2499 (¥200 off); S20 Max ¥2999; AirX ¥399"
    fitted = fit(f"{line}\n- Order 90417: AirX, in transit, YT5566778899",
                 count_tokens(line) + 10, find_ids)
    assert fitted.evicted == ["S20 Pro ¥2499 (¥200 off)"]
    assert "- Products: S20 Max ¥2999; AirX ¥399" in fitted.text
    alone = fit("- 商品：A1 ¥1；B2 ¥2；C3 ¥3", 9, find_ids)
    assert alone.text == "- 商品：C3 ¥3" and alone.evicted == ["A1 ¥1", "B2 ¥2"]


def test_the_production_summarizers_fit_with_the_ladder():
    """The production summaries (structured, compact) are fitted by the ladder;
    notebook 04's summarizer by its one rule, unless `fit=` names another."""
    from tinyagent import LlmClient
    from tinyagent.memory import Summarizer, budget
    from tinyagent.production import CompactChatMemory, StructuredSummarizer
    llm = LlmClient(offline=True)
    assert Summarizer(llm).fit_rule is budget.fit
    assert StructuredSummarizer(llm).fit_rule is fit
    assert CompactChatMemory(llm).summarizer.fit_rule is fit
    tight = Summarizer(llm, max_summary_tokens=50, fit=fit)
    assert tight.fit(SUMMARY) == fit(SUMMARY, 50, find_ids).text != budget.fit(
        SUMMARY, 50, find_ids).text
