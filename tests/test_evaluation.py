"""The planted-fact evaluation: the dialog generator, the scores, the pictures."""

import re

import pytest

from tinyagent import LlmClient
from tinyagent.course.evaluation import (
    PROBE_SPAN,
    PRODUCTS,
    Score,
    evaluate,
    planted_dialog,
    plot_recall_cost,
    plot_tokens,
)
from tinyagent.course.planted import FACT_SPAN, FACT_TURNS, PHRASEBOOKS
from tinyagent.lang import is_chinese
from tinyagent.offline.intents import detect_intent, order_ids
from tinyagent.tools import store


@pytest.fixture(scope="module", params=["en", "zh"])
def evaluation(request):
    """The 50-turn evaluation of every strategy, in English and in Chinese (each over
    its own store, and the package set to that language, as in its notebook), run
    once a language for the module (~1 s each): the rules below hold in both."""
    from tinyagent.lang import set_lang

    set_lang(request.param)
    try:
        return evaluate(LlmClient(offline=True), planted_dialog(lang=request.param))
    finally:
        set_lang("en")


# -- the generator
def test_same_seed_same_dialog_other_seed_other_dialog():
    assert planted_dialog(50, seed=3) == planted_dialog(50, seed=3)
    assert planted_dialog(50, seed=3).turns != planted_dialog(50, seed=4).turns
    assert len(planted_dialog(12, seed=1).turns) == 12


@pytest.mark.parametrize("seed", range(5))
def test_facts_planted_early_probes_late(seed):
    """Turn 1 looks the order up, turn 2 refunds it, three probes (one per fact) fall
    in the last PROBE_SPAN turns, and the planted values are the store's."""
    dialog = planted_dialog(50, seed)
    order = dialog.facts["order"]
    assert order_ids(dialog.turns[0]) == [order] == order_ids(dialog.turns[1])
    assert dialog.facts["tracking"] == store.ORDERS[order]["tracking_number"]
    assert dialog.facts["refund"] == "RF20260701001"
    assert sorted(p.fact for p in dialog.probes) == ["order", "refund", "tracking"]
    for probe in dialog.probes:
        assert 50 - PROBE_SPAN < probe.turn <= 50
        assert probe.expected == dialog.facts[probe.fact]
        assert detect_intent(dialog.turns[probe.turn - 1]) == "recall"


# The offline model's intent for each kind of filler question.
FILLER_INTENTS = {"price": "price", "offer": "promotion", "compare": "compare",
                  "buy": "buy", "recommend": "recommend", "discounts": "promotion",
                  "warranty": "policy", "return_shipping": "policy",
                  "seven_day": "policy", "refund_time": "refund_timing",
                  "date": "time"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_phrasing_triggers_the_intended_intent(lang):
    """Lookups ask about an order, refunds ask for one, probes recall; each kind of
    filler question is its intent (said again after a reason too), and names no
    order, so it never overwrites a planted fact."""
    book = PHRASEBOOKS.say(lang)
    assert {detect_intent(t.format(order="90417")) for t in book.lookups} == {
        "order_status"}
    assert {detect_intent(t.format(order="90417")) for t in book.refunds} == {
        "refund"}
    assert {detect_intent(t) for ts in book.probes.values() for t in ts} == {"recall"}
    assert set(book.fillers) == set(FILLER_INTENTS)
    for kind, ways in book.fillers.items():
        for way in ways:
            for again in ["", *book.again]:
                text = again + way.format(a=PRODUCTS[2], b=PRODUCTS[3])
                assert detect_intent(text) == FILLER_INTENTS[kind], text
                assert not re.search(r"\d{5}", text)


def test_the_chinese_phrasebook_is_the_english_one_line_for_line():
    """Each Chinese phrasing asks what its English twin asks (the same intent, the
    same recall kind), so the two editions of notebook 06 play the same dialog."""
    en, zh = PHRASEBOOKS.en, PHRASEBOOKS.zh
    pairs = [*zip(en.lookups, zh.lookups, strict=True),
             *zip(en.refunds, zh.refunds, strict=True)]
    pairs += [pair for kind in en.fillers
              for pair in zip(en.fillers[kind], zh.fillers[kind], strict=True)]
    pairs += [pair for fact in en.probes
              for pair in zip(en.probes[fact], zh.probes[fact], strict=True)]
    assert list(zh.probes) == list(en.probes) and list(zh.fillers) == list(en.fillers)
    assert len(zh.again) == len(en.again)
    for book in (en.stated, en.fact_probes):
        other = zh.stated if book is en.stated else zh.fact_probes
        assert list(book) == list(other)
        assert all(len(book[k]) == len(other[k]) for k in book)
    for english, chinese in pairs:
        texts = [t.format(order="90417", a="S20 Pro", b="S20 Max")
                 for t in (english, chinese)]
        assert detect_intent(texts[0]) == detect_intent(texts[1]), chinese


def questions_in(dialog):
    """(turn index, (kind, products), said again?) of every filler question."""
    book = PHRASEBOOKS.say(dialog.lang)
    forms = {way.format(a=a, b=b): (kind, a, b) for kind, ways in book.fillers.items()
             for way in ways for a in ("", *PRODUCTS) for b in ("", *PRODUCTS)}
    found = []
    for index, text in enumerate(dialog.turns):
        again = next((p for p in book.again if text.startswith(p)), "")
        rest = text[len(again):]
        rest = rest if dialog.lang == "zh" or not again else rest[0].upper() + rest[1:]
        if rest in forms:
            found.append((index, forms[rest], bool(again)))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", range(8))
def test_a_question_comes_back_only_with_its_reason(lang, seed):
    """One customer asks each question once; in a dialog longer than their
    questions, one that comes back is said after the reason it comes back ("Just to
    be sure, once more: …", "前面问过，再确认一下：…"), and never before every
    question was asked."""
    dialog = planted_dialog(50, seed, lang=lang)
    found = questions_in(dialog)
    probed = {p.turn - 1 for p in dialog.probes + dialog.fact_probes}
    said = [dialog.stated[fact] for fact in ("contact", "budget", "delivery")]
    rules = {i for i in range(2, 8) if any(v in dialog.turns[i] for v in said)}
    fillers = [i for i in range(2, 50) if i not in probed | rules]
    assert [i for i, _, _ in found] == fillers, dialog.turns  # every filler is read
    seen = set()
    for _, question, again in found:
        assert again == (question in seen), (question, dialog.turns)
        seen.add(question)
    first_again = next((i for i, (_, _, again) in enumerate(found) if again), None)
    if first_again is not None:
        assert {q for _, q, _ in found[:first_again]} == {q for _, q, _ in found}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", range(8))
def test_what_the_customer_says_follows_from_what_came_before(lang, seed):
    """Turns 3-8 say, in this order, how to reach the customer about the refund,
    the budget for the vacuum they will buy, and when to deliver it; the one vacuum
    they buy is within that budget and was asked about before."""
    dialog = planted_dialog(50, seed, lang=lang)
    stated = [next(fact for fact in ("contact", "budget", "delivery")
                   if dialog.stated[fact] in text)
              for text in dialog.turns[2:8] if any(dialog.stated[f] in text for f in
                                                   ("contact", "budget", "delivery"))]
    assert stated == ["contact", "budget", "delivery"], dialog.turns[:8]
    prices = {name: p["price"] for name in PRODUCTS for p in store.PRODUCTS
              if name in p["name"]}
    found = questions_in(dialog)
    bought = [(i, q) for i, q, again in found if q[0] == "buy"]
    vacuums = [q[1] for _, q in bought if q[1] in PRODUCTS[:4]]
    assert len(vacuums) == 1 and prices[vacuums[0]] <= int(dialog.stated["budget"])
    for index, (_, product, _) in bought:
        assert index >= 8 and any(product in (q[1], q[2]) for i, q, _ in found
                                  if i < index and q[0] != "buy"), dialog.turns


@pytest.mark.parametrize("seed", range(5))
def test_one_seed_one_conversation_in_both_languages(seed):
    """The same seed plants the same order and asks for the same facts at the same
    turns; only the words are Chinese."""
    en, zh = planted_dialog(30, seed), planted_dialog(30, seed, lang="zh")
    assert (zh.facts, zh.probes, zh.lang) == (en.facts, en.probes, "zh")
    assert all(is_chinese(text) for text in zh.turns)
    assert order_ids(zh.turns[0]) == order_ids(en.turns[0])


def test_too_short_a_dialog_is_refused():
    """In the language of the dialog asked for."""
    with pytest.raises(ValueError, match="turns must be >= 6"):
        planted_dialog(5)
    with pytest.raises(ValueError, match="turns 至少为 6"):
        planted_dialog(5, lang="zh")


def test_the_dialog_follows_the_language_setting():
    """Without `lang`, the package's language at the time of the call."""
    from tinyagent.lang import speaking

    with speaking("zh"):
        assert planted_dialog(12).lang == "zh"
    assert planted_dialog(12).lang == "en"


# -- the scores
def test_recall_per_strategy(evaluation):
    """The full buffer, summary and hybrid recall every planted id and every fact the
    customer stated; no memory, the 6-message window and the 400-token window have
    lost them all by the probes."""
    recall = {s.strategy: (sum(s.recalled), sum(s.facts_recalled))
              for s in evaluation.scores}
    assert recall == {"none": (0, 0), "in-memory": (3, 4), "window 6": (0, 0),
                      "tokens 400": (0, 0), "summary 10/4": (3, 4),
                      "hybrid 4/8": (3, 4)}


@pytest.mark.parametrize("seed", range(3))
def test_the_customers_words_are_planted_early_and_asked_late(seed):
    """From FACT_TURNS turns on: the reason rides on the refund turn, three rules
    fall in turns 3-8, four fact probes late; each answer must hold a seeded value
    that the turns state (in both languages), so no fixed answer can pass."""
    for lang in ("en", "zh"):
        dialog = planted_dialog(50, seed, lang=lang)
        assert sorted(p.fact for p in dialog.fact_probes) == [
            "budget", "contact", "delivery", "reason"]
        for probe in dialog.fact_probes:
            assert 50 - FACT_SPAN < probe.turn <= 50
            assert detect_intent(dialog.turns[probe.turn - 1]) == "recall_fact"
            planted = [t for t in dialog.turns[1:8] if probe.expected in t]
            assert planted, (probe, dialog.turns[:8])
    assert planted_dialog(FACT_TURNS - 1, seed).fact_probes == ()
    values = {tuple(planted_dialog(50, s).stated.values()) for s in range(8)}
    assert len(values) > 2


def test_full_buffer_grows_every_turn_window_and_hybrid_stay_bounded(evaluation):
    """In-memory holds more after every turn; the window and the hybrid hold no more
    in the second half of the dialog than in the first."""
    runs = evaluation.comparison
    held = [t.memory_tokens for t in runs["in-memory"].turns]
    assert all(b > a for a, b in zip(held, held[1:], strict=False))
    for name in ["window 6", "hybrid 4/8"]:  # long answers (comparisons) may move
        held = [t.memory_tokens for t in runs[name].turns]  # the peak, not double it
        assert max(held[25:]) <= max(held[:25]) * 1.5, name


def test_hybrid_keeps_everything_for_a_fraction_of_the_full_buffer(evaluation):
    """The memory part: hybrid's peak is at most 17 % of the full buffer's (its
    summary keeps the customer's own words too), and it sends at most 55 % of the
    tokens. Whole prompts: the system prompt and tool schemas (~540 tokens) are sent
    on every call by every strategy, so no memory gets the peak below no memory's."""
    full, hybrid, none = (evaluation[n] for n in ["in-memory", "hybrid 4/8", "none"])
    assert hybrid.peak_memory_tokens <= 0.17 * full.peak_memory_tokens
    assert none.peak_prompt_tokens < hybrid.peak_prompt_tokens
    assert hybrid.peak_prompt_tokens <= 0.40 * full.peak_prompt_tokens
    assert hybrid.total_tokens <= 0.55 * full.total_tokens


def test_summarizer_calls_are_the_extra_cost(evaluation):
    for s in evaluation.scores:
        summarizes = s.strategy.startswith(("summary", "hybrid"))
        assert (s.summarizer_calls > 0) == summarizes == (s.summarizer_tokens > 0)
        assert s.total_tokens == s.prompt_tokens + s.summarizer_tokens


def test_score_recall_is_a_fraction():
    score = Score("x", (True, False, True), 1, 1, 0, 0, 0)
    assert score.recall == pytest.approx(2 / 3)


def test_table_text_and_html(evaluation):
    """The caption, a header and a row a strategy; the HTML has as many rows."""
    text = str(evaluation).splitlines()
    assert text[0] == "Planted facts: 50 turns (seed 0), 3 id and 4 fact probes"
    assert text[1].split()[:3] == ["strategy", "ids", "facts"] and len(text) == 2 + 6
    assert text[-1].split()[:4] == ["hybrid", "4/8", "3/3", "4/4"]
    assert evaluation._repr_html_().count("<tr>") == 7
    chinese = str(evaluation.table(lang="zh"))
    assert chinese.startswith("埋入的事实：50 轮（种子 0），3 个编号探针、4 个事实探针")


# -- the pictures
def test_plots_draw_a_line_or_a_point_per_strategy(evaluation):
    import matplotlib  # here, not at collection: few pytest workers run this test

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = plot_tokens(evaluation.comparison)
    assert len(ax.get_lines()) == 6 and len(ax.get_lines()[0].get_xdata()) == 50
    ax = plot_tokens(evaluation.comparison, cumulative=True)
    assert ax.get_lines()[1].get_ydata()[-1] == evaluation["in-memory"].total_tokens
    axes = plot_recall_cost(evaluation)
    names = [s.strategy for s in evaluation.scores]
    assert [t.get_text() for t in axes[1].get_legend().get_texts()] == names
    for ax in axes:  # a point per strategy, and the frontier
        assert len(ax.collections) == len(names) and len(ax.get_lines()) == 1
    plt.close("all")


def test_the_command_documents_its_arguments(capsys):
    """`python -m tinyagent.course.evaluation --help` names turns and seed; a bad
    length is refused with the rule, not a traceback."""
    from tinyagent.course.evaluation import main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "turns" in out and "seed" in out and "default: 50" in out
    with pytest.raises(SystemExit):
        main(["3"])
    assert "turns must be >= 6" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", range(6))
def test_a_comparison_weighs_two_products_of_one_kind(lang, seed):
    """A comparison names two vacuums, never a vacuum against earbuds."""
    for text in planted_dialog(50, seed, lang=lang).turns:
        if detect_intent(text) == "compare":
            names = re.findall(r"S\d0 (?:Pro|Max|Lite)", text)
            assert len(names) == 2 and names[0] != names[1], text


@pytest.mark.parametrize("seed", range(6))
def test_the_chinese_refund_reason_names_what_broke(seed):
    """The Chinese refund turn says what broke the way a person does ("扫地机充不
    进电了"), with the error code the probe asks back for."""
    from tinyagent.course.planted_zh import THING

    dialog = planted_dialog(50, seed, lang="zh")
    refund = dialog.turns[1]
    assert any(word in refund for word in THING.values()), refund
    assert dialog.stated["reason"] in refund


def test_a_probe_is_labelled_in_the_pages_language():
    """A probe's label names its fact in Chinese on a Chinese page ("退款编号
    RF…"), in English otherwise, with the planted value in both."""
    dialog = planted_dialog(50, 0, lang="zh")
    refund = next(p for p in dialog.probes if p.fact == "refund")
    assert refund.label("zh") == f"退款编号 {refund.expected}"
    assert refund.label("en") == f"refund {refund.expected}"
    assert all(is_chinese(p.label("zh")) for p in dialog.probes + dialog.fact_probes)


def test_the_tuning_hints_quote_the_measured_hybrid(evaluation):
    """06.tune_hybrid's hints quote hybrid 4/8's peak and tokens sent, in each
    language: they are the figures this evaluation measures, not older ones."""
    from pathlib import Path

    import tinyagent.course.exercises.nb06 as nb06

    hybrid = next(s for s in evaluation.scores if s.strategy == "hybrid 4/8")
    source = Path(nb06.__file__).read_text(encoding="utf-8")
    for figure in (hybrid.peak_prompt_tokens, hybrid.total_tokens):
        assert f"{figure:,}" in source, f"nb06's hints do not quote {figure:,}"
