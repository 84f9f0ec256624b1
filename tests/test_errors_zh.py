"""Under `set_lang("zh")` every error and printed line of the model client, the
settings, the stores, the benchmark and the strategy catalogue speaks Chinese, with
no stray English (tests/zh_text.py) and no secret; under "en" it says what it said.

Each error is provoked for real: a bad environment variable, a missing file, a
failing server on 127.0.0.1 (tests/fake_server.py), a name nobody knows.
"""

import socket
import sqlite3

import pytest
from fake_server import Reply, completion, error, fake_server_fixture  # noqa: F401
from zh_text import stray_english

from tinyagent import ReActAgent, bitmall_tools
from tinyagent.agent import TurnNotSavedError
from tinyagent.chat_model import LlmError
from tinyagent.course.catalogue import STRATEGIES, make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.planted import planted_dialog
from tinyagent.course.playground import Playground
from tinyagent.lang import is_chinese, set_lang
from tinyagent.llm import LlmClient
from tinyagent.messages import ChatMessage
from tinyagent.settings import numbers_from_env
from tinyagent.storage import SqliteStore, StoreError, check_name, open_store

KEY = "sk-test0123456789abcdefSECRET"
PASSWORD = "hunter2secret"
HELLO = [ChatMessage.user("Where is my order 88231?")]


@pytest.fixture
def lang():
    """Set the package's language for one test; always back to English after."""
    try:
        yield set_lang
    finally:
        set_lang("en")


def message(call) -> str:
    """The message of the exception `call()` raises (a KeyError's, unquoted)."""
    try:
        call()
    except (LlmError, StoreError, ValueError, KeyError, TypeError) as exc:
        return str(exc.args[0]) if isinstance(exc, KeyError) else str(exc)
    raise AssertionError("no error raised")


def agent(**options) -> ReActAgent:
    """An offline agent built with `options` (some of them wrong)."""
    return ReActAgent(LlmClient(offline=True), bitmall_tools(), verbose=False,
                      **options)


def real(server, **options) -> LlmClient:
    options = {"max_retries": 0, "timeout": 5.0, **options}
    return LlmClient(api_key=KEY, base_url=options.pop("url", server.url),
                     model="fake", **options)


def chat_against(server, reply, **options) -> str:
    server.script = [reply]
    return message(lambda: real(server, **options).chat(HELLO))


def unreachable() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://user:{PASSWORD}@127.0.0.1:{port}/v1"
    return message(lambda: LlmClient(api_key=KEY, base_url=url, max_retries=0,
                                     timeout=2.0).chat(HELLO))


def bad_timeout(monkeypatch) -> str:
    monkeypatch.setenv("TINYAGENT_TIMEOUT", "abc")
    return message(numbers_from_env)


def other_application(tmp_path) -> str:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS invoices (id INTEGER)")
    conn.close()
    return message(lambda: SqliteStore(path))


def no_session() -> str:
    with SqliteStore() as store:
        return message(lambda: store.messages("bob"))


# (id, what provokes it, a piece of the English message, needs the fake server)
CASES = [
    ("timeout-env", lambda t, m, s: bad_timeout(m), "TINYAGENT_TIMEOUT must be"),
    ("timeout-arg", lambda t, m, s: message(lambda: LlmClient(offline=True,
                                                             timeout=-1)),
     "timeout must be a number of seconds"),
    ("count", lambda t, m, s: message(lambda: LlmClient(offline=True,
                                                       max_retries=-1)),
     "max_retries must be a whole number >= 0"),
    ("url", lambda t, m, s: message(lambda: LlmClient(
        api_key=KEY, base_url=f"ftp://u:{PASSWORD}@host/v1")), "is not an http(s)"),
    ("key-char", lambda t, m, s: message(lambda: LlmClient(api_key="sk-a\u00a0b")),
     "TINYAGENT_API_KEY holds U+00A0"),
    ("no-key", lambda t, m, s: message(lambda: LlmClient(offline=False)),
     "a real model needs an API key"),
    ("no-message", lambda t, m, s: message(lambda: LlmClient(offline=True).chat([])),
     "chat() needs at least one message"),
    ("sqlite-missing", lambda t, m, s: message(lambda: SqliteStore(
        t / "nope.db", create=False)), "does not exist: check the path"),
    ("sqlite-folder", lambda t, m, s: message(lambda: SqliteStore(t)),
     "is a folder"),
    ("sqlite-other", lambda t, m, s: other_application(t),
     "is not a TinyAgent session database"),
    ("scheme", lambda t, m, s: message(lambda: open_store(
        f"mysql://bitmall:{PASSWORD}@db/support")), "unknown database URL scheme"),
    ("empty-url", lambda t, m, s: message(lambda: open_store(" ")),
     "the database URL is empty"),
    ("session-name", lambda t, m, s: message(lambda: check_name("")),
     "a session name must be non-empty text"),
    ("no-session", lambda t, m, s: no_session(), "no session named 'bob'"),
    ("http-401", lambda t, m, s: chat_against(s, error(401, f"密钥 {KEY} 无效")),
     "model call failed: HTTP 401"),
    ("http-429", lambda t, m, s: chat_against(s, Reply(
        {"error": {"message": "请求过多"}}, 429, {"retry-after": "30"})),
     "asks to wait 30 s"),
    ("timed-out", lambda t, m, s: chat_against(s, Reply(completion(), delay=2),
                                               timeout=0.2),
     "model call timed out after 0.2s"),
    ("encoding", lambda t, m, s: chat_against(s, Reply(
        completion(), headers={"content-encoding": "br"})),
     "which this client does not inflate"),
    ("unreachable", lambda t, m, s: unreachable(), "cannot reach"),
    ("strategy", lambda t, m, s: message(lambda: make_strategies(
        LlmClient(offline=True), ["nope"])), "unknown strategy nope: choose from"),
    ("not-saved", lambda t, m, s: str(TurnNotSavedError("好的", OSError("磁盘已满"))),
     "the answer was not saved (OSError"),
    ("banner", lambda t, m, s: LlmClient(offline=True).describe(),
     "Using the offline BitMall model"),
    ("agent-steps", lambda t, m, s: message(lambda: agent(max_steps=0)),
     "max_steps must be >= 1 (one model call)"),
    ("agent-budget", lambda t, m, s: message(lambda: agent(max_tokens=0)),
     "max_tokens must be >= 1"),
    ("agent-calls", lambda t, m, s: message(lambda: agent(max_tool_calls_per_step=0)),
     "max_tool_calls_per_step must be >= 1"),
    ("agent-lang", lambda t, m, s: message(lambda: agent(lang="fr")),
     "lang must be 'en', 'zh', 'auto'"),
    ("agent-empty", lambda t, m, s: message(lambda: agent().run("  ")),
     "the user message must be non-empty text"),
    ("agent-parts", lambda t, m, s: message(lambda: ReActAgent(None, bitmall_tools())),
     "llm must have a chat() method"),
    ("bad-lang", lambda t, m, s: message(lambda: set_lang("fr")),
     "set_lang takes 'en' or 'zh'"),
    ("short-dialog", lambda t, m, s: message(lambda: planted_dialog(3)),
     "turns must be >= 6"),
    ("empty-script", lambda t, m, s: message(lambda: compare(LlmClient(offline=True),
                                                             [])),
     "the script is empty"),
    ("playground", lambda t, m, s: message(lambda: Playground(
        LlmClient(offline=True), strategy="bogus")), "unknown strategy 'bogus'"),
]
SERVED = {"http-401", "http-429", "timed-out", "encoding"}


# Latin words that are names in a message, not English: the parameter a learner
# passes, the test's model id ("fake"), the folders of pytest's tmp_path, the command
# that creates a file, the strategies' command-line names, an exception's class.
NAMED = {"timeout-arg": {"timeout"}, "no-key": {"env"}, "sqlite-missing": {"chat"},
         "strategy": {"nope", *STRATEGIES}, "not-saved": {"OSError"},
         "agent-lang": {"lang"}, "agent-two-langs": {"lang", "labels"},
         "agent-parts": {"llm", "NoneType"}, "bad-lang": {"lang"},
         "short-dialog": {"turns"}, "playground": {*STRATEGIES}}


@pytest.mark.parametrize("case, provoke, english", CASES,
                         ids=[case for case, _, _ in CASES])
def test_an_error_speaks_the_package_language(case, provoke, english, lang,
                                               tmp_path, monkeypatch, request):
    """Each message is Chinese without stray English or a secret under "zh", and the
    English one (with its own fragment) under "en"."""
    server = request.getfixturevalue("fake_server") if case in SERVED else None
    allowed = {*NAMED.get(case, ()), "fake",
               *(part for part in str(tmp_path).split("/") if part)}
    lang("zh")
    chinese = provoke(tmp_path, monkeypatch, server)
    lang("en")
    assert english in provoke(tmp_path, monkeypatch, server)
    assert is_chinese(chinese), chinese
    assert stray_english(chinese, allowed) == [], chinese
    assert KEY not in chinese and PASSWORD not in chinese


def test_the_bench_prints_chinese_tables(lang, capsys, monkeypatch):
    """`tinyagent --lang zh bench` (made small: 10 and 20 messages, 20 adds): every
    printed line, strategy titles included, is Chinese; under "en" it is English."""
    import functools

    import tinyagent.course.bench as bench
    from tinyagent.course.cli import main

    monkeypatch.setattr(bench, "SIZES", (10, 20))
    monkeypatch.setattr(bench, "main", functools.partial(bench.main, adds=20,
                                                         repeats=1, calls=1))
    main(["--lang", "zh", "bench"])
    chinese = capsys.readouterr().out
    lang("en")
    main(["bench"])
    english = capsys.readouterr().out
    assert "One offline model call" in english and "strategy" in english
    assert "窗口" in chinese and stray_english(chinese) == [], chinese


def test_the_banner_follows_the_language_unless_told(lang):
    """describe() speaks the package's language; describe(lang=...) overrides it."""
    llm = LlmClient(offline=True)
    lang("zh")
    assert "离线" in llm.describe() and "offline" in llm.describe(lang="en")
    lang("en")
    assert "离线" in llm.describe(lang="zh") and "offline" in llm.describe()


TOOL_SLIPS = [("nope", {}), ("queryOrder", {}),
              ("queryOrder", {"order_id": "1", "x": 2}),
              ("queryOrder", {"order_id": [1]}), ("queryOrder", {"__raw__": "{88231"}),
              ("getCurrentTime", {"x": 1})]


@pytest.mark.parametrize("name, arguments", TOOL_SLIPS)
def test_a_tool_error_speaks_the_stores_language(name, arguments, lang):
    """A model's slip (an unknown tool, a missing, unknown or mistyped argument, bad
    JSON) comes back as a tool result in the store's language: Chinese from the
    Chinese store whatever the setting, English from the English one."""
    import json

    from tinyagent.messages import ToolCall

    lang("en")
    chinese = json.loads(bitmall_tools(lang="zh").run(ToolCall("1", name, arguments)))
    english = json.loads(bitmall_tools(lang="en").run(ToolCall("1", name, arguments)))
    allowed = {"getCurrentTime", *bitmall_tools().names(), "order_id", "x"}
    assert is_chinese(chinese["error"]) and not is_chinese(english["error"])
    assert stray_english(chinese["error"], allowed) == [], chinese
