"""Token cost by language: the six turns in English and Chinese (notebook 06)."""

import pytest
from zh_text import english_sentences

from tinyagent import ChatMessage, LlmClient
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.course.language_cost import by_language, show_tokens, token_pieces
from tinyagent.lang import is_chinese, set_lang
from tinyagent.tokens import count_message_tokens, count_tokens


@pytest.fixture(scope="module")
def costs():
    """Every strategy on the six turns, once per language (~0.2 s)."""
    return by_language(LlmClient(offline=True))


@pytest.fixture
def chinese():
    set_lang("zh")
    yield
    set_lang("en")


def test_each_language_plays_its_own_six_turns_over_its_own_store(costs):
    """English and Chinese runs, the six turns of each; the Chinese answers are
    Chinese from the first turn, so the Chinese store served them."""
    assert list(costs.comparisons) == ["en", "zh"]
    for lang, comparison in costs.comparisons.items():
        assert [t.question for t in comparison["in-memory"].turns] == SIX_TURNS[lang]
    assert all(is_chinese(t.answer) for t in costs.comparisons["zh"]["none"].turns)
    assert "比特严选" in costs.comparisons["zh"]["none"].turns[0].answer


def test_no_chinese_question_costs_fewer_tokens_than_its_english_twin(costs):
    """Shorter in characters, never cheaper in tokens: each Chinese question costs at
    least as many tokens as the English one."""
    for en, zh in zip(SIX_TURNS["en"], SIX_TURNS["zh"], strict=True):
        assert len(zh) < len(en)
        assert count_tokens(zh) >= count_tokens(en), zh


def test_the_same_conversation_holds_more_tokens_in_chinese(costs):
    """The full buffer holds more tokens in Chinese after every turn."""
    en, zh = (costs.comparisons[lang]["in-memory"].turns for lang in ("en", "zh"))
    assert all(z.memory_tokens > e.memory_tokens for e, z in zip(en, zh, strict=True))


def test_the_fixed_part_is_the_same_every_turn_and_larger_in_chinese(costs):
    """Without memory, a first prompt minus its question is one number a language
    (system prompt and tool schemas), and the Chinese one is larger: its system
    prompt and tool descriptions are Chinese."""
    def question(text: str) -> int:
        return count_message_tokens(ChatMessage.user(text))

    fixed = {lang: {t.context_tokens - question(t.question) for t in c["none"].turns}
             for lang, c in costs.comparisons.items()}
    assert len(fixed["en"]) == len(fixed["zh"]) == 1
    assert fixed["zh"].pop() > fixed["en"].pop()


def test_the_fixed_part_table_adds_up(costs):
    """What a call without memory really sends is at least the system prompt plus
    the tool schemas, in each language; the rest is message overhead."""
    rows = {row[0]: [int(c.replace(",", "")) for c in row[1:]]
            for row in costs.fixed_part().rows}
    prompt, schemas, sent = rows.values()
    assert all(p + s <= t < p + s + 20
               for p, s, t in zip(prompt, schemas, sent, strict=True))


@pytest.mark.parametrize("name", ["summary 10/4", "hybrid 4/8"])
def test_a_summary_saves_the_same_share_in_both_languages(costs, name):
    """What a summary memory holds at the end, as a share of the full buffer, is
    below four fifths and within 5 points across the languages."""
    share = {lang: c[name].turns[-1].memory_tokens
             / c["in-memory"].turns[-1].memory_tokens
             for lang, c in costs.comparisons.items()}
    assert max(share.values()) < 0.8
    assert abs(share["en"] - share["zh"]) < 0.05


def test_english_carries_about_four_characters_a_token_chinese_about_one(costs):
    """The characters table: over 3 characters a token in English, under 1.5 in
    Chinese, for the questions and the answers alike."""
    rows = costs.characters().rows
    ratios = {row[0]: float(row[3]) for row in rows}
    assert len(rows) == 4
    assert all(r > 3 for name, r in ratios.items() if "(en)" in name)
    assert all(r < 1.5 for name, r in ratios.items() if "(zh)" in name)


@pytest.mark.parametrize("text", [SIX_TURNS["en"][5], SIX_TURNS["zh"][5],
                                  "¥1999 退款 RF20260701001"])
def test_the_pieces_put_back_together_are_the_text(text):
    """Joined, without their ×N marks, the pieces are the text again, and the marks
    add up with the pieces to the token count."""
    pieces = token_pieces(text)
    marks = [int(p.rsplit("×", 1)[1]) if "×" in p else 1 for p in pieces]
    assert "".join(p.rsplit("×", 1)[0] if "×" in p else p for p in pieces) == text
    assert sum(marks) == count_tokens(text)


def test_a_character_split_over_two_tokens_is_marked():
    """"扫" is two tokens in cl100k: one piece, marked ×2; " refund" is one piece."""
    assert token_pieces("扫") == ["扫×2"]
    assert token_pieces("I want a refund") == ["I", " want", " a", " refund"]


def test_show_tokens_prints_counts_then_pieces(capsys):
    """Two lines a text: characters, tokens and their ratio; then the pieces."""
    show_tokens("退款多久到账？")
    first, second = capsys.readouterr().out.splitlines()
    assert first == "7 characters, 8 tokens: 0.9 characters a token"
    assert second == "  退|款|多|久×2|到|账|？"


def test_in_a_chinese_notebook_the_tables_are_chinese(costs, chinese, capsys):
    """After set_lang("zh") no table or printed line holds an English sentence."""
    show_tokens(SIX_TURNS["zh"][1])
    shown = [repr(costs.per_turn()), repr(costs.fixed_part()), repr(costs.savings()),
             repr(costs.characters()), capsys.readouterr().out]
    assert shown[0].startswith("每轮的 token 数")
    assert not [s for text in shown for s in english_sentences(text)]
