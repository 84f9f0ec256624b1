"""The exercise checkers in Chinese: `check(..., lang="zh")`, or `set_lang("zh")`.

Each checker's Chinese report is tested next to its English one, in
test_exercises_nb00.py … nb08.py (test_exercise_catalogue.py): no English sentence,
the failing case named first, the Chinese edition's own code (zh_solutions.py)
passes, and every wrong solution is shown 得到 (what it gave) and 应为 (what was
expected). Here are the rules of the language itself: which one a report speaks,
and how a crash reads.
"""


import pytest
from test_exercise_catalogue import (
    OFFICIAL,
    chinese_report,
    official,
    one_line,
    stub,
    unwrapped_reports,
)

from tinyagent.course.exercises import check
from tinyagent.course.exercises._errors import in_chinese
from tinyagent.lang import get_lang, set_lang

CAP_ITEMS = "08.cap_items"  # a quick exercise: nine cases, no model call


def test_every_stub_reads_as_one_chinese_line():
    """An unfinished stub gets one Chinese line for every exercise: "还没有写", no
    case, no hint, never a crash."""
    for name in sorted(OFFICIAL):
        result, out = chinese_report(name, "stub")
        assert one_line(out) and "还没有写" in out and "提示" not in out, out
        assert not result


def test_lang_zh_overrides_the_notebook_setting_and_restores_it(capsys):
    """check(..., lang="zh") reports in Chinese in an English notebook, and the
    notebook is English again afterwards."""
    set_lang("en")
    check(CAP_ITEMS, official(*OFFICIAL[CAP_ITEMS]), lang="zh")
    assert "项检查全部通过。做得好！" in capsys.readouterr().out
    assert get_lang() == "en"


def test_without_lang_the_notebook_setting_is_followed_and_kept(capsys):
    """Without lang, check() follows set_lang("zh") and leaves it set."""
    set_lang("zh")
    try:
        check(CAP_ITEMS, official(*OFFICIAL[CAP_ITEMS]))
        assert "项检查全部通过" in capsys.readouterr().out
        assert get_lang() == "zh"
    finally:
        set_lang("en")


def test_lang_en_gives_english_in_a_chinese_notebook(capsys):
    """check(..., lang="en") in a Chinese notebook prints the English report, and
    the notebook stays Chinese."""
    set_lang("zh")
    try:
        check(CAP_ITEMS, stub, lang="en")
        out = capsys.readouterr().out
        assert "not written yet" in out and "还没有写" not in out
        assert get_lang() == "zh"
    finally:
        set_lang("en")


def test_the_setting_is_restored_when_the_check_raises():
    """An unknown exercise raises (in Chinese), and the notebook's language is still
    restored."""
    set_lang("en")
    with pytest.raises(KeyError, match="没有名为"):
        check("99.nope", stub, lang="zh")
    assert get_lang() == "en"


def test_a_wrong_language_raises_value_error_naming_it():
    """check(..., lang="fr") raises a ValueError that names "fr", and changes
    nothing."""
    with pytest.raises(ValueError, match="'fr'"):
        check(CAP_ITEMS, stub, lang="fr")
    assert get_lang() == "en"


def test_a_crash_reads_in_chinese_with_its_type(capsys):
    """Learner code that raises shows "代码出错：" with the exception's type, and
    Python's message retold in Chinese."""
    with unwrapped_reports():
        check(CAP_ITEMS, lambda items, *caps: items.role, lang="zh")
    out = capsys.readouterr().out
    assert "代码出错：得到 AttributeError：'list' 对象没有属性 'role'；" in out
    assert "应为正常返回" in out


@pytest.mark.parametrize("english, chinese", [
    ("'dict' object has no attribute 'to_dict'", "'dict' 对象没有属性 'to_dict'"),
    ("f() takes 2 positional arguments but 3 were given",
     "f() 接受 2 个位置参数，却传入了 3 个"),
    ("name 'x' is not defined", "名字 'x' 未定义"),
    ("division by zero", "除数为零"),
])
def test_common_python_errors_are_retold_keeping_their_names(english, chinese):
    """A message a beginner meets is retold in Chinese; names and counts stay."""
    assert in_chinese(english) == chinese


def test_an_unknown_message_is_shown_as_it_was():
    """A message no pattern knows is not guessed at: it is shown unchanged."""
    assert in_chinese("the flux capacitor is empty") == "the flux capacitor is empty"


def test_the_offline_models_refusal_is_retold_in_chinese():
    """The offline model's refusal of a tool result without its call reads as
    Chinese, with the index, the call id and the status kept."""
    message = ("model call failed: HTTP 400 from the offline model: Error code: 400 - "
               "messages[1]: messages with role 'tool' must be a response to a "
               "preceding message with 'tool_calls' (tool_call_id 'call_7'). The "
               "provider rejected the request itself: check the messages sent (e.g. "
               "a tool result without its call)")
    assert in_chinese(message) == (
        "模型调用失败：离线模型返回 HTTP 400：messages[1]：角色为 'tool' 的消息，"
        "必须回应它前面带 'tool_calls' 的消息（tool_call_id 'call_7'）。模型服务"
        "拒绝了请求本身：请检查发出的消息（例如缺了调用的工具结果）")
