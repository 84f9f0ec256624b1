"""The comparison harness and `tinyagent compare` (six-turn script, offline)."""

import subprocess
import sys

import pytest

from tinyagent import HybridChatMemory, LlmClient, LlmError
from tinyagent.course.catalogue import SIX_TURNS, make_strategies
from tinyagent.course.cli import main
from tinyagent.course.compare import compare
from tinyagent.course.comparison import TurnRecord
from tinyagent.course.evaluation import planted_dialog
from tinyagent.course.table import Table

REFUND = "RF20260701001"
LABELS = ["none", "in-memory", "window 6", "tokens 400", "summary 10/4", "hybrid 4/8"]


@pytest.fixture(scope="module")
def llm():
    return LlmClient(offline=True)


@pytest.fixture(scope="module")
def six(llm):
    """Every strategy on the six-turn demo, run once for the module."""
    return compare(llm)


def test_one_run_per_strategy_and_one_record_per_turn(six):
    """Runs come in the order given, labelled with their sizes; each has a record a
    turn holding the question, a non-empty answer and at least one model call."""
    assert [run.name for run in six.runs] == LABELS
    for run in six.runs:
        assert [t.question for t in run.turns] == SIX_TURNS["en"]
        assert all(isinstance(t, TurnRecord) and t.answer and t.prompt_tokens
                   for t in run.turns)
    assert six["hybrid 4/8"] is six.runs[-1]
    assert isinstance(six["hybrid 4/8"].memory, HybridChatMemory)


def test_the_full_buffer_grows_every_turn(six):
    """In-memory: what memory holds and each turn's first prompt grow every turn."""
    turns = six["in-memory"].turns
    for before, after in zip(turns, turns[1:], strict=False):
        assert after.memory_tokens > before.memory_tokens
        assert after.context_tokens > before.context_tokens


def test_without_memory_nothing_is_held_and_turn_2_asks_which_order(six):
    """No memory: 0 tokens held, and "this vacuum" cannot be resolved in turn 2."""
    run = six["none"]
    assert all(t.memory_tokens == 0 for t in run.turns)
    assert run.turns[1].answer.startswith("Which order do you mean?")


def test_the_window_forgets_the_refund_number_summary_and_hybrid_keep_it(six):
    """Turn 6 asks for the refund number of turn 2: the 6-message window has dropped
    turn 2; in-memory, token window, summary and hybrid still answer it."""
    answers = {run.name: run.turns[-1].answer for run in six.runs}
    assert REFUND not in answers["none"] and REFUND not in answers["window 6"]
    for name in ["in-memory", "tokens 400", "summary 10/4", "hybrid 4/8"]:
        assert REFUND in answers[name], name


def test_only_summary_kinds_call_the_summarizer(six):
    """Summary 10/4 compresses at 10 messages (after turn 5), hybrid 4/8 at 8 (after
    turns 4 and 6); they pay for it in summarizer tokens; the others never call it."""
    expected = {"summary": [0, 0, 0, 0, 1, 0], "hybrid": [0, 0, 0, 1, 0, 1]}
    for run in six.runs:
        calls = [t.summarizer_calls for t in run.turns]
        kind = run.name.split()[0]
        if kind in expected:
            assert calls == expected[kind]
            assert run.total("compressions") == sum(calls)
            assert run.total("summarizer_tokens") > 0
        else:
            assert sum(calls) == 0 and run.total("summarizer_tokens") == 0


def test_cost_counts_every_call_and_the_summarizer(six):
    """A turn's cost is all its prompts plus the summarizer's tokens; the peak is
    the largest single prompt."""
    run = six["hybrid 4/8"]
    assert run.total("cost_tokens") == sum(
        sum(t.prompt_tokens) + t.summarizer_tokens for t in run.turns)
    assert run.peak_prompt_tokens == max(max(t.prompt_tokens) for t in run.turns)


def test_runs_are_deterministic(llm):
    """The offline model is a pure function of the request: same script, same numbers
    and answers, every time."""
    chosen = make_strategies(llm, ["window", "hybrid"])
    first, second = compare(llm, None, chosen), compare(llm, None, chosen)
    assert [r.turns for r in first.runs] == [r.turns for r in second.runs]


def test_tokens_table_text_and_html(six):
    """Text: caption, header, a row a turn, five total rows, numbers right-aligned.
    HTML: one escaped table, nothing that changes between runs."""
    text = str(six)
    lines = text.splitlines()
    assert len(lines) == 2 + 6 + 5 + 3  # + cached, billed, money
    assert lines[1].split()[-2:] == ["hybrid", "4/8"]
    assert lines[-4].startswith("memory held at the end")
    assert lines[-1].startswith("money (CNY")
    assert len({len(line) for line in lines[1:]}) == 1  # every row as wide
    html = six._repr_html_()
    assert html.startswith("<div class='ta-scroll' style='overflow-x:auto'><table>")
    assert html.count("<tr>") == 1 + 6 + 5 + 3
    assert "0x" not in html and html == six._repr_html_()


def test_answers_table_side_by_side_and_stacked(six):
    """Side by side: a row a turn, a column a strategy. With turns: a row per
    strategy and turn, the question only on the first."""
    wide = six.answers_table(width=30)
    assert wide.header == ["turn", *LABELS] and len(wide.rows) == 6
    assert all(len(cell) <= 30 for row in wide.rows for cell in row[1:])
    tall = six.answers_table(70, turns=[6])
    assert [row[1] for row in tall.rows] == LABELS
    assert tall.rows[0][0].startswith("6 By the way") and tall.rows[1][0] == ""


def test_table_aligns_chinese_by_terminal_columns():
    """A CJK character takes two terminal columns: rows still line up."""
    table = Table("t", ["turn", "tokens"], [["退款多久到账？", "9"], ["abc", "1,234"]])
    lines = str(table).splitlines()[1:]
    widths = {sum(2 if "\u4e00" <= c <= "\u9fff" or c == "？" else 1 for c in line)
              for line in lines}
    assert len(widths) == 1


def test_unknown_strategy_names_the_value_and_the_choices(llm):
    """A misspelt strategy is refused with the bad name and the names to choose."""
    with pytest.raises(ValueError, match="unknown strategy hybird: choose from none"):
        make_strategies(llm, ["none", "hybird"])


def test_an_empty_script_is_refused(llm):
    with pytest.raises(ValueError, match="script is empty"):
        compare(llm, [])


def test_cli_compare_prints_the_table_and_the_last_answers(capsys):
    """`tinyagent compare --strategies none,hybrid`: the banner, the table and the
    answers to turn 6; nothing on stderr (not a terminal)."""
    assert main(["compare", "--strategies", "none,hybrid"]) == 0
    captured = capsys.readouterr()
    assert "Strategies: none, hybrid 4/8; 6 turns." in captured.out
    assert "peak prompt (any call)" in captured.out
    assert f"Your refund number is {REFUND}" in captured.out
    assert captured.err == ""


def test_cli_compare_on_a_planted_dialog_prints_what_each_strategy_recalled(capsys):
    """`compare --turns N` ends with its headline: ids and the customer's words
    recalled per strategy; a memory that keeps nothing recalls nothing."""
    assert main(["compare", "--turns", "20", "--strategies", "none,inmemory"]) == 0
    out = capsys.readouterr().out
    recall = out[out.index("Recall (ids / the customer's words):"):]
    lines = {line.split()[0]: line.split()[1:] for line in recall.splitlines()[1:3]}
    assert lines["none"] == ["0/3", "0/4"]
    assert lines["in-memory"] == ["3/3", "4/4"]


def test_cli_compare_reads_a_script_and_shows_progress_on_a_terminal(
        tmp_path, capsys, monkeypatch):
    """--script: one message a line, blank lines skipped; on a terminal a progress
    bar goes to stderr, never to stdout."""
    script = tmp_path / "script.txt"
    script.write_text("Where is my order 90417?\n\nWhat was the tracking number "
                      "again?\n", encoding="utf-8")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status = main(["compare", "--script", str(script), "--strategies", "window",
                   "--answers", "all"])
    captured = capsys.readouterr()
    assert status == 0 and "2 turns" in captured.out
    assert "YT5566778899" in captured.out.split("Answers")[1]
    assert "window 6: turn 2/2" in captured.err and captured.err.endswith("\n")
    assert "#" not in captured.out


@pytest.mark.parametrize("argv, message", [
    (["--strategies", "none,nope"], "unknown strategy nope"),
    (["--script", "missing.txt"], "missing.txt"),
])
def test_cli_compare_bad_input_exits_2_with_the_reason(argv, message, capsys):
    assert main(["compare", *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_compare_empty_script(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n", encoding="utf-8")
    assert main(["compare", "--script", str(empty)]) == 2
    captured = capsys.readouterr()
    assert "is empty: write one message a line" in captured.err and not captured.out


def test_importing_compare_does_not_import_matplotlib():
    """`tinyagent` imports compare at start-up: it must stay light."""
    code = "import sys, tinyagent.course.compare; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_cli_compare_turns_plays_a_long_dialog_and_short_scripts_say_so(capsys):
    """--turns N plays the planted-fact dialog of N turns; a script under 10 turns
    ends with a line saying a summary cannot pay for itself that soon."""
    assert main(["compare", "--turns", "12", "--strategies", "inmemory,summary"]) == 0
    out = capsys.readouterr().out
    assert "12 turns." in out and "barely started" not in out
    assert main(["compare", "--strategies", "none"]) == 0
    assert "tinyagent compare --turns 50" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_notebook_06_teaches_holds_in_both_languages(llm, six, lang):
    """On the six turns in either language, over that language's store: none and
    the window forget the refund number, the others recall it; the full buffer holds
    the most at the end and hybrid the least of those that recall; only summary and
    hybrid call the summarizer, at the same turns in both languages. (English: the
    module's run of the six English turns.)"""
    result = six if lang == "en" else compare(llm, lang=lang)
    assert [t.question for t in result.runs[0].turns] == SIX_TURNS[lang]
    runs = {run.name: run for run in result.runs}
    recalled = {name for name, run in runs.items() if REFUND in run.turns[-1].answer}
    assert recalled == {"in-memory", "tokens 400", "summary 10/4", "hybrid 4/8"}
    held = {name: runs[name].turns[-1].memory_tokens for name in recalled}
    assert held["in-memory"] == max(held.values())  # the token window may tie it
    assert held["hybrid 4/8"] < min(v for k, v in held.items() if k != "hybrid 4/8")
    calls = {name: [t.summarizer_calls for t in run.turns]
             for name, run in runs.items()}
    assert calls["summary 10/4"] == [0, 0, 0, 0, 1, 0]
    assert calls["hybrid 4/8"] == [0, 0, 0, 1, 0, 1]
    assert sum(map(sum, calls.values())) == 3


def test_tables_speak_the_language_asked_and_the_labels_stay(six):
    """lang="zh" gives Chinese captions and headers; the strategy labels and the
    figures are the same as in the English table."""
    english, chinese = six.tokens_table(), six.tokens_table(lang="zh")
    assert chinese.caption.startswith("每轮第一次模型调用")
    assert chinese.header[0] == "轮次"
    assert chinese.header[1:] == english.header[1:] == LABELS
    assert [row[1:] for row in chinese.rows] == [row[1:] for row in english.rows]
    assert six.answers_table(turns=[6], lang="zh").header == ["轮次", "策略", "回答"]


@pytest.mark.parametrize("provider", ["openai", "deepseek", "qwen", "none",
                                      "anthropic"])
def test_cached_and_billed_figures_are_the_sums_of_the_usage(provider):
    """compare(provider=P) reports cached tokens equal to the sum of what each
    call's usage said (the summarizer's too), and bills them, the writes and the
    replies (a summary is a reply) at P's rule and prices."""
    from tinyagent.course.prices import billed as bill_tokens

    llm = LlmClient(offline=True)
    seen = []
    chat = llm.chat

    def spy(messages, tools=None):
        reply = chat(messages, tools)
        seen.append(reply.usage)
        return reply

    llm.chat = spy
    result = compare(llm, strategies=make_strategies(llm, ["inmemory", "summary"]),
                     provider=provider)
    cached = sum(u.cached_tokens for u in seen)
    written = sum(u.written_tokens for u in seen)
    prompts = sum(u.prompt_tokens for u in seen)
    replies = sum(u.completion_tokens for u in seen)
    assert sum(r.total("cached_tokens") for r in result.runs) == cached
    assert sum(r.total("written_tokens") for r in result.runs) == written
    assert (cached > 0) == (provider in ("deepseek", "qwen"))  # six short turns
    assert written == 0  # no prompt of six turns reaches anthropic's 1,024 tokens
    billed = sum(r.billed(provider) for r in result.runs)
    assert billed == pytest.approx(bill_tokens(provider, prompts, cached, written,
                                               replies))
    assert billed > prompts - cached  # the replies are billed too
    table = repr(result.tokens_table())
    assert f"{provider} rule" in table and f"{provider} prices" in table


def test_cli_compare_provider_prints_the_cached_and_billed_rows(capsys):
    """--provider picks the offline cache rule and the prices: the rows say which,
    and the cached figure is the one compare() reports for the same run."""
    assert main(["compare", "--strategies", "inmemory,compact", "--provider",
                 "deepseek"]) == 0
    out = capsys.readouterr().out
    cached = next(line for line in out.splitlines() if line.startswith("cached"))
    assert "offline, deepseek rule" in cached
    assert "billed (input-token equivalents, deepseek prices)" in out
    llm = LlmClient(offline=True)
    run = compare(llm, strategies=make_strategies(llm, ["inmemory"]),
                  provider="deepseek").runs[0]
    assert f"{run.total('cached_tokens'):,}" == cached.split()[-2]


class FailsOnTurn:
    """The offline model, except that every call of one turn times out."""

    def __init__(self, llm, turn_text):
        self.llm, self.turn_text = llm, turn_text

    def chat(self, messages, tools=None):
        if tools and messages[-1].content == self.turn_text:
            raise LlmError("model call timed out after 60s")
        return self.llm.chat(messages, tools)


def test_a_failed_turn_is_recorded_and_the_run_goes_on(llm):
    """A model call that fails marks its turn "failed" in both tables; the other
    turns and strategies still run, and the memory keeps what it held."""
    flaky = FailsOnTurn(llm, SIX_TURNS["en"][2])
    result = compare(flaky, strategies=make_strategies(llm, ["none", "inmemory"]))
    for run in result.runs:
        assert [bool(t.error) for t in run.turns] == [False, False, True,
                                                      False, False, False]
        assert run.turns[2].prompt_tokens == () and run.turns[5].answer
    text = str(result.tokens_table()) + str(result.answers_table())
    assert "failed" in text and "timed out" in text
    assert result["in-memory"].turns[2].memory_tokens == \
        result["in-memory"].turns[1].memory_tokens


def test_cli_compare_takes_a_learners_own_cache_numbers(capsys):
    """--cached-price, --min-tokens, --expiry and --pause bill under the named rule
    with the learner's numbers (the rows say "+custom"), as bill() does for the
    same run; a bad value is refused naming what it must be."""
    from tinyagent.course.billing import RecordingClient, bill
    from tinyagent.offline.clock import Schedule

    argv = ["compare", "--strategies", "inmemory", "--turns", "14", "--provider",
            "openai", "--cached-price", "0.5", "--min-tokens", "256", "--expiry",
            "45", "--pause", "60"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "offline, openai+custom rule" in out
    billed = next(line for line in out.splitlines() if line.startswith("billed"))
    recorder = RecordingClient()
    compare(recorder, planted_dialog(14).turns,
            make_strategies(recorder, ["inmemory"]))
    expected = bill(recorder.runs[0], "openai", cached_share=0.5, min_tokens=256,
                    expiry_seconds=45, schedule=Schedule(60))
    assert billed.split()[-1] == f"{expected:,.0f}"
    for bad in (["--cached-price", "2"], ["--min-tokens", "-1"], ["--expiry", "0"]):
        with pytest.raises(SystemExit):
            main(["compare", *bad])
        assert "must be" in capsys.readouterr().err
