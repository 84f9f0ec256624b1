"""Rules of the agent's language: `lang=`, the package's setting, and the question's."""


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


def test_the_old_name_labels_is_gone():
    """lang= is the one name of the agent's language: labels= is refused."""
    with pytest.raises(TypeError, match="labels"):
        agent(labels="zh")


@pytest.mark.parametrize("arguments, error, words", [
    ({"lang": "fr"}, ValueError, "lang must be 'en', 'zh', 'auto' .* got 'fr'"),
    ({"lang": "chinese"}, ValueError, "got 'chinese'"),
])
def test_a_wrong_lang_is_refused_naming_it(arguments, error, words):
    """An unknown language: an error naming it, when the agent is built."""
    with pytest.raises(error, match=words):
        agent(**arguments)
