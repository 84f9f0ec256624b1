"""Rules of the agent's language: `lang=`, the package's setting, and the question's."""

import warnings

import pytest

from tinyagent import get_lang, set_lang
from tinyagent.agent import SYSTEM_PROMPT, SYSTEM_PROMPT_ZH, ReActAgent
from tinyagent.lang import is_chinese
from tinyagent.llm import LlmClient
from tinyagent.tools import bitmall_tools

ZH_QUESTION, EN_QUESTION = "我的订单88231到哪了？", "Where is my order 88231?"


def agent(**kwargs):
    return ReActAgent(LlmClient(offline=True), bitmall_tools(), **kwargs)


@pytest.fixture
def chinese_setting():
    before = get_lang()
    set_lang("zh")
    yield
    set_lang(before)


def test_without_lang_the_setting_chooses_prompt_and_labels(chinese_setting, capsys):
    """lang=None: after set_lang("zh") the prompt is SYSTEM_PROMPT_ZH and the trace
    is labelled in Chinese, even for an agent built before the setting changed."""
    set_lang("en")
    built_before = agent()
    set_lang("zh")
    for a in (built_before, agent()):
        assert a.build_messages(EN_QUESTION)[0].content == SYSTEM_PROMPT_ZH
        a.run(EN_QUESTION)
        out = capsys.readouterr().out
        assert out.startswith("[用户] ") and "[结束]" in out and "step 1" not in out


def test_a_fixed_lang_ignores_the_setting(chinese_setting, capsys):
    """lang="en" keeps the English prompt and trace whatever set_lang says."""
    a = agent(lang="en")
    assert a.build_messages(ZH_QUESTION)[0].content == SYSTEM_PROMPT
    a.run(ZH_QUESTION)
    assert capsys.readouterr().out.startswith("User: ")


def test_an_english_agent_answers_a_chinese_question_in_chinese(capsys):
    """The default setting ("en"): English prompt and trace, but a Chinese question
    gets a Chinese answer, and a Chinese apology when a guard stops the turn."""
    assert get_lang() == "en"
    a = agent()
    assert a.build_messages(ZH_QUESTION)[0].content == SYSTEM_PROMPT
    assert is_chinese(a.run(ZH_QUESTION))
    assert capsys.readouterr().out.startswith("User: ")
    stopped = agent(max_steps=1, verbose=False)
    assert "抱歉" in stopped.run(ZH_QUESTION)
    assert stopped.last_trace.stop_reason == "max_steps"


def test_labels_is_the_old_name_of_lang_and_warns_nobody():
    """labels="zh" means lang="zh" (its trace labels are the Chinese ones), and
    raises no warning: notebooks and the course still pass it."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = agent(labels="zh")
    assert old.lang == "zh" and old.trace_labels == agent(lang="zh").trace_labels
    assert old.build_messages(EN_QUESTION)[0].content == SYSTEM_PROMPT_ZH


@pytest.mark.parametrize("arguments, error, words", [
    ({"lang": "fr"}, ValueError, "lang must be 'en', 'zh', 'auto' .* got 'fr'"),
    ({"labels": "chinese"}, ValueError, "got 'chinese'"),
    ({"lang": "en", "labels": "zh"}, TypeError, "labels='zh' and lang='en' disagree"),
])
def test_a_wrong_lang_is_refused_naming_it(arguments, error, words):
    """An unknown language, or labels= and lang= that disagree: an error naming them."""
    with pytest.raises(error, match=words):
        agent(**arguments)
