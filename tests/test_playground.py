"""Rules of the playground, driven from code: type, press Send, read the panel."""

import pytest
from zh_text import english_sentences

from tinyagent import LlmClient, set_lang
from tinyagent.course.catalogue import STRATEGIES
from tinyagent.display import SUMMARY_STYLE
from tinyagent.memory.fence import SUMMARY_HEADER_ZH

OFFLINE = LlmClient(offline=True)


def Playground(*args, **options):  # noqa: N802 (stands for the class)
    """The playground, imported at the first test, not at collection: ipywidgets and
    IPython load in the one pytest worker that runs this file."""
    from tinyagent.course.playground import Playground

    return Playground(*args, **options)


def say(playground, text):
    playground.chat_box.value = text
    playground.send_button.click()


def test_pressing_send_answers_and_shows_the_turn_in_the_panel():
    """Send takes the chat box's text, clears it, and the panel lists the turn with
    each message's role and tokens."""
    pg = Playground(OFFLINE, "inmemory")
    say(pg, "Where is my order 88231?")
    assert pg.chat_box.value == "" and "88231" in pg.transcript.value
    lines = pg.panel_text().splitlines()
    assert lines[0].startswith("Memory: 2 messages, ")
    assert lines[1].split()[:2] == ["1", "user"] and lines[2].split()[1] == "assistant"
    assert all(line.split()[2].isdigit() for line in lines[1:])


def test_the_summary_is_marked_and_highlighted():
    """Once a summary exists it is the first row: ★ in the text, shaded in HTML."""
    pg = Playground(OFFLINE, "structured")
    pg.sliders["keep_recent_turns"].value = 1
    for text in ["Where is my order 88231?", "How much is the S20 Pro?"]:
        say(pg, text)
    first = pg.panel_text().splitlines()[1]
    assert first.startswith("★ 1  summary") and "1 compression\n" in pg.panel_text()
    assert SUMMARY_STYLE in pg.memory_panel.value
    assert "## Running summary" in pg.memory_panel.value


def test_the_gauge_shows_the_last_prompt_against_the_budget():
    """The gauge's value is the last turn's largest prompt; its maximum the budget."""
    pg = Playground(OFFLINE, "hybrid", max_tokens=2000)
    say(pg, "Where is my order 88231?")
    assert pg.gauge.max == 2000
    assert pg.gauge.value == max(pg.agent.last_trace.prompt_tokens) > 0
    assert f"Prompt tokens: {pg.gauge.value} / 2000 [" in str(pg)


def test_the_menu_swaps_the_sliders_and_a_slider_keeps_the_conversation():
    """Each strategy brings its own sliders; moving one keeps the conversation and
    rebuilds the memory from it with that value."""
    pg = Playground(OFFLINE, "window")
    assert list(pg.sliders) == ["max_messages"]
    pg.strategy_menu.value = "summary"
    assert list(pg.sliders) == list(STRATEGIES["summary"].sizes)
    say(pg, "Where is my order 88231?")
    pg.sliders["threshold"].value = 6
    assert len(pg.turns) == 1 and pg.memory.threshold == 6
    assert [m.role.value for m in pg.memory.messages()] == ["user", "assistant"]
    assert pg.status_text == ("Conversation: summary(threshold=6, keep_recent=4)"
                              " · 1 turn sent")


def test_a_smaller_window_rebuilt_holds_only_the_latest_turns():
    """Rebuilding gives the new memory every message again, so it keeps what its
    own rule keeps: a window of 2 holds the last turn only."""
    pg = Playground(OFFLINE, "window")
    for text in ["Where is my order 88231?", "How much is the S20 Pro?"]:
        say(pg, text)
    pg.sliders["max_messages"].value = 2
    assert [m.content for m in pg.memory.messages()][0] == "How much is the S20 Pro?"


def test_new_conversation_empties_the_transcript_and_the_memory():
    """The "New conversation" button starts over with the same setting."""
    pg = Playground(OFFLINE, "window")
    say(pg, "Where is my order 88231?")
    pg.new_button.click()
    assert pg.turns == [] and pg.memory.messages() == [] and pg.gauge.value == 0
    assert pg.status_text == "New conversation: window(max_messages=6)"


def test_an_impossible_setting_is_explained_and_the_chat_goes_on():
    """keep_recent >= threshold: the status says why, and the agent runs without
    memory until it is fixed."""
    pg = Playground(OFFLINE, "summary")
    pg.sliders["keep_recent"].value = 10
    assert pg.status_text.startswith("⚠ keep_recent must be < threshold")
    assert pg.memory is None and "88231" in pg.send("Where is my order 88231?")


def test_the_text_view_is_deterministic_and_is_what_nbval_compares():
    """Two playgrounds fed the same turns print the same text, with no address;
    the notebook's text/plain is that text."""
    views = []
    for _ in range(2):
        pg = Playground(OFFLINE, "hybrid")
        for text in ["Where is my order 88231?", "I want a refund"]:
            say(pg, text)
        views.append(str(pg))
    assert views[0] == views[1] and "0x" not in views[0]
    bundle = pg._repr_mimebundle_()
    assert bundle["text/plain"] == views[0]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_blank_message_is_not_sent():
    """Send with an empty box does nothing."""
    pg = Playground(OFFLINE, "inmemory")
    assert pg.send("   ") is None and pg.turns == [] and pg.memory.messages() == []


def test_an_unknown_strategy_is_refused_with_the_choices():
    """The error names the value and the valid strategies."""
    with pytest.raises(ValueError, match="unknown strategy 'lru'.*hybrid"):
        Playground(OFFLINE, "lru")


def test_enter_in_the_chat_box_sends_the_text_it_carries():
    """The browser's "submit" message (Enter or Send) carries the text the learner
    sees, and each is answered in the order sent; other messages send nothing."""
    pg = Playground(OFFLINE, "inmemory")
    pg.chat_box._handle_custom_msg({"event": "other", "text": "x"}, [])
    pg.chat_box._handle_custom_msg({"event": "submit"}, [])  # no text: nothing
    assert pg.turns == []
    texts = [f"Where is my order 88231? question {i}" for i in range(5)]
    for text in texts:  # as the comm delivers them
        pg.chat_box._handle_custom_msg({"event": "submit", "text": text}, [])
    assert [q for q, _ in pg.turns] == texts and pg.chat_box.value == ""


def test_a_blank_send_clears_the_box_and_sends_nothing():
    """Spaces alone are not a message: the box is emptied, no turn is taken."""
    pg = Playground(OFFLINE, "inmemory")
    pg.chat_box.value = "   "
    pg.send_button.click()
    assert pg.chat_box.value == "" and pg.turns == []


def test_past_the_budget_the_gauge_and_status_agree_with_the_agent():
    """A turn refused for its size: the gauge shows the size the agent refused
    (over the budget, said in words), and the status counts it as refused."""
    pg = Playground(OFFLINE, "inmemory", max_tokens=1000)
    while not pg.refused:
        pg.send("Where is my order 88231? and the S20 Pro price and my refund")
    assert f"({pg.last_prompt_tokens} tokens" in pg.agent.last_trace.answer
    assert pg.last_prompt_tokens > 1000 and "over the budget" in pg.gauge_label.value
    answered = len(pg.turns) - 1
    assert pg.status_text.endswith(f" · {answered} turns sent · 1 refused "
                                   "(over the token budget)")


def test_the_transcript_scrolls_wraps_and_keeps_numbers_whole():
    """A 300-character word wraps inside a scroll box of fixed height, and an order
    number is never split across lines."""
    pg = Playground(OFFLINE, "inmemory")
    pg.send("x" * 300)
    pg.send("Where is my order 88231?")
    html = pg.transcript.value
    assert "overflow-wrap:anywhere" in html and "max-height:" in html
    assert "overflow-y:auto" in html and "x" * 300 in html
    assert '<span style="white-space:nowrap">88231</span>' in html


def test_the_status_line_counts_the_turns_sent():
    """"New conversation" until a turn is sent; then the turns are counted, and a
    warning stays in front of the count."""
    pg = Playground(OFFLINE, "window")
    assert pg.status_text == "New conversation: window(max_messages=6)"
    pg.send("Where is my order 88231?")
    assert pg.status_text == "Conversation: window(max_messages=6) · 1 turn sent"
    pg.send("I want a refund")
    assert pg.status_text.endswith(" · 2 turns sent")
    pg.strategy_menu.value = "summary"
    pg.sliders["keep_recent"].value = 12
    pg.send("Where is my order 88231?")
    assert pg.status_text.startswith("⚠ ") and pg.status_text.endswith("3 turns sent")


def test_the_status_is_wrapping_html_with_the_text_escaped():
    """The status widget wraps long lines and shows `<` as text, not markup."""
    pg = Playground(OFFLINE, "summary")
    pg.sliders["keep_recent"].value = 10
    assert "white-space:normal" in pg.status.value
    assert "must be &lt; threshold" in pg.status.value


def test_the_gauge_shows_its_number_next_to_the_bar():
    """The label beside the bar reads the last prompt's tokens and the budget."""
    pg = Playground(OFFLINE, "inmemory", max_tokens=8000)
    assert pg.gauge_label.value == "0 / 8,000 tokens in the last prompt"
    pg.send("Where is my order 88231?")
    number = f"{pg.gauge.value:,} / 8,000 tokens in the last prompt"
    assert pg.gauge_label.value == number
    assert pg.gauge.value > 0


@pytest.mark.parametrize("strategy", ["none", "inmemory", "hybrid"])
def test_an_empty_memory_says_so_in_words(strategy):
    """With nothing stored, the panel shows an "Empty" line, not a bare header row;
    once a turn is stored, the table appears."""
    pg = Playground(OFFLINE, strategy)
    assert "Empty" in pg.memory_panel.value and "<th>" not in pg.memory_panel.value
    assert "(Empty" in pg.panel_text()
    pg.send("Where is my order 88231?")
    stored = strategy != "none"
    assert ("<th>" in pg.memory_panel.value) is stored
    assert ("Empty" in pg.memory_panel.value) is not stored


def test_a_chinese_playground_shows_no_english_sentence():
    """lang="zh": the text view (status, turns, gauge, panel) is Chinese, over the
    Chinese store, with Chinese headings in the structured summary."""
    pg = Playground(OFFLINE, "structured", lang="zh")
    pg.sliders["keep_recent_turns"].value = 1
    for text in ["帮我查一下订单 88231 的物流到哪了", "退款多久到账？"]:
        say(pg, text)
    view = str(pg)
    assert not english_sentences(view), english_sentences(view)
    assert "比特严选" in view and "## 滚动摘要" in view
    assert pg.send_button.description == "发送"


def test_the_playground_follows_the_notebook_language():
    """Without lang=, a playground speaks the language set_lang chose."""
    set_lang("zh")
    try:
        pg = Playground(OFFLINE, "hybrid")
    finally:
        set_lang("en")
    assert pg.status_text == "新对话：混合（原样保留消息数 4，合并阈值 8）"
    english = Playground(OFFLINE, "hybrid").status_text
    assert english == "New conversation: hybrid(recent_size=4, summary_threshold=8)"


def test_a_chinese_playgrounds_menu_and_sliders_are_chinese():
    """In Chinese the menu shows the strategies' Chinese titles and each slider its
    size's Chinese name; the values stay the keys code uses."""
    from zh_text import stray_english

    pg = Playground(OFFLINE, "structured", lang="zh")
    labels = [label for label, _ in pg.strategy_menu.options]
    assert "全量记忆" in labels and "结构化" in labels and "window" not in labels
    names = [s.description for s in pg.sliders.values()]
    assert names == ["原样保留轮数", "每批压缩轮数"]
    assert list(pg.sliders) == ["keep_recent_turns", "batch_turns"]
    assert stray_english(" ".join(labels) + pg.status_text) == []


def test_a_chinese_summary_strategy_fences_its_summary_in_chinese():
    """For summary and hybrid too, the summary the agent reads is fenced in Chinese."""
    pg = Playground(OFFLINE, "summary", lang="zh")
    pg.sliders["threshold"].value, pg.sliders["keep_recent"].value = 4, 2
    for text in ["帮我查一下订单 88231 的物流到哪了", "退款多久到账？",
                 "S20 Pro 多少钱"]:
        say(pg, text)
    assert pg.memory.messages()[0].content.startswith(SUMMARY_HEADER_ZH)


def test_a_chinese_playground_explains_an_impossible_setting_in_chinese():
    """lang="zh": the summary memory's size error and the status around it are
    Chinese."""
    pg = Playground(OFFLINE, "summary", lang="zh")
    pg.sliders["keep_recent"].value = 10
    assert pg.status_text.startswith("⚠ ")
    assert pg.status_text.endswith("改好之前不使用记忆。")
    assert not english_sentences(pg.status_text), pg.status_text


def test_the_memory_table_never_breaks_a_word():
    """Only prose and the preview cell may break a long word anywhere; the table
    around them may not, or "tokens" and "assistant" would split mid-word."""
    pg = Playground(OFFLINE, "inmemory")
    pg.send("Where is my order 88231?")
    wrapper = pg.memory_panel.value.split(">", 1)[0]
    assert "overflow-wrap" not in wrapper and "text-align:left" in wrapper
    assert "text-align:left;overflow-wrap:anywhere" in pg.memory_panel.value


@pytest.mark.parametrize("strategy, said", [("none", "none"),
                                            ("inmemory", "in-memory")])
def test_a_strategy_without_sizes_is_named_by_its_title(strategy, said):
    """The status names a strategy with no sizes as the menu does ("in-memory"),
    not as a call with no arguments ("inmemory()")."""
    pg = Playground(OFFLINE, strategy)
    assert pg.status_text == f"New conversation: {said}"
    assert "()" not in str(pg)


def test_one_compression_is_one_compression():
    """The panel counts in words that agree with the number: "1 compression",
    "2 compressions"."""
    pg = Playground(OFFLINE, "structured")
    pg.sliders["keep_recent_turns"].value = 1
    counts = []
    for text in ["Where is my order 88231?", "How much is the S20 Pro?",
                 "Any discounts at the moment?"]:
        say(pg, text)
        counts.append(pg.panel_text().splitlines()[0].split(", ")[-1])
    assert counts == ["0 compressions", "1 compression", "2 compressions"]


def test_new_conversation_can_be_taken_back():
    """"New conversation" is a click away, and so is an accident: the button that
    brings the last conversation back shows after it, restores every turn and the
    memory, and goes once a new turn is sent."""
    pg = Playground(OFFLINE, "inmemory")
    say(pg, "Where is my order 88231?")
    before = (str(pg), list(pg.history))
    assert pg.undo_button.layout.display == "none"
    pg.new_button.click()
    assert pg.turns == [] and pg.undo_button.layout.display is None
    pg.undo_button.click()
    assert (str(pg), pg.history) == before and pg.undo_button.layout.display == "none"
    pg.new_button.click()
    say(pg, "How much is the S20 Pro?")
    assert pg.undo_button.layout.display == "none" and len(pg.turns) == 1
    pg.bring_back()  # nothing to bring back: the new conversation stays
    assert len(pg.turns) == 1


def test_displayed_it_first_prints_a_line_that_outlives_the_kernel(capsys,
                                                                   monkeypatch):
    """In a notebook the playground prints one line before the live widget, saying
    to run the cell again if the controls read as an error; the widget's bundle
    keeps its text view."""
    shown = []
    monkeypatch.setattr("IPython.display.display",
                        lambda data, **options: shown.append((data, options)))
    pg = Playground(OFFLINE, "window")
    pg._ipython_display_()
    assert "run this cell again" in capsys.readouterr().out
    data, options = shown[0]
    assert options["raw"] and data["text/plain"] == str(pg)
    assert "application/vnd.jupyter.widget-view+json" in data
