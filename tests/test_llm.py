"""Rules of LlmClient: offline by default, from_env, clear errors without secrets."""

import httpx
import pytest

from tinyagent.chat_model import LlmError
from tinyagent.llm import LlmClient
from tinyagent.messages import ChatMessage

KEY = "sk-test0123456789abcdefSECRET"
HELLO = [ChatMessage.user("Where is my order 88231?")]


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No TINYAGENT_* variables and no .env file: a fresh learner's laptop."""
    for name in ["TINYAGENT_API_KEY", "TINYAGENT_API_URL", "TINYAGENT_MODEL",
                 "TINYAGENT_OFFLINE", "TINYAGENT_SUMMARY_MODEL"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_key_means_offline(clean_env):
    """Without a key the client is offline and says so."""
    llm = LlmClient.from_env()
    assert llm.offline and "offline" in llm.describe()


def test_key_from_dotenv_file(clean_env, monkeypatch):
    """from_env reads TINYAGENT_* from a .env file in the working directory."""
    (clean_env / ".env").write_text(f"TINYAGENT_API_KEY={KEY}\n"
                                    "TINYAGENT_API_URL=http://localhost:11434/v1\n"
                                    "TINYAGENT_MODEL=qwen2.5:7b\n")
    llm = LlmClient.from_env()
    for name in ["TINYAGENT_API_KEY", "TINYAGENT_API_URL", "TINYAGENT_MODEL"]:
        monkeypatch.delenv(name, raising=False)  # load_dotenv set them: undo
    assert not llm.offline
    assert (llm.base_url, llm.model) == ("http://localhost:11434/v1", "qwen2.5:7b")


def test_offline_flag_wins_over_a_key(clean_env, monkeypatch):
    """TINYAGENT_OFFLINE=1 forces the offline model even when a key is set."""
    monkeypatch.setenv("TINYAGENT_API_KEY", KEY)
    monkeypatch.setenv("TINYAGENT_OFFLINE", "1")
    assert LlmClient.from_env().offline


@pytest.mark.parametrize("summary_model, expected", [("qwen-turbo", "qwen-turbo"),
                                                     (None, "qwen-plus")])
def test_summaries_use_the_summary_model_when_set(clean_env, monkeypatch,
                                                  summary_model, expected):
    """for_summaries() is from_env() with TINYAGENT_SUMMARY_MODEL as the model when
    it is set, and the agent's model when it is not; same endpoint and key."""
    monkeypatch.setenv("TINYAGENT_API_KEY", KEY)
    monkeypatch.setenv("TINYAGENT_MODEL", "qwen-plus")
    if summary_model:
        monkeypatch.setenv("TINYAGENT_SUMMARY_MODEL", summary_model)
    summaries, agent = LlmClient.for_summaries(), LlmClient.from_env()
    assert (summaries.model, agent.model) == (expected, "qwen-plus")
    assert summaries.base_url == agent.base_url and not summaries.offline


def test_the_offline_model_ignores_the_summary_model(clean_env, monkeypatch):
    """Offline there is one model: the summary model setting changes nothing."""
    monkeypatch.setenv("TINYAGENT_SUMMARY_MODEL", "qwen-turbo")
    llm = LlmClient.for_summaries()
    assert llm.offline and llm.model == LlmClient.from_env().model


def test_forcing_online_without_a_key_is_an_error():
    """offline=False with no key raises and says which variable to set."""
    with pytest.raises(ValueError, match="TINYAGENT_API_KEY"):
        LlmClient(offline=False)


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), 1e12, True,
                                     "60"])
def test_bad_timeout_is_rejected(timeout):
    """A timeout that is not a finite number of seconds in (0, 3600] is a
    ValueError naming it: nan and inf never reach the SDK."""
    with pytest.raises(ValueError, match=r"^timeout must be a number of seconds"):
        LlmClient(offline=True, timeout=timeout)


@pytest.mark.parametrize("argument,value", [
    ("max_retries", -1), ("max_retries", 1.5), ("max_reply_tokens", 0),
    ("max_reply_tokens", True)])
def test_bad_counts_are_rejected(argument, value):
    """max_retries and max_reply_tokens must be whole numbers, named when not."""
    with pytest.raises(ValueError, match=rf"^{argument} must be a whole number"):
        LlmClient(offline=True, **{argument: value})


def test_repr_and_describe_never_show_the_key():
    """Printing a client (as notebooks do) never reveals the key."""
    llm = LlmClient(api_key=KEY, base_url="https://example.invalid/v1", model="m")
    assert KEY not in repr(llm) and KEY not in llm.describe()
    assert repr(llm) == "LlmClient(model='m', https://example.invalid/v1)"


def _real_client_answering(handler) -> LlmClient:
    """A 'real' client whose HTTP goes to `handler` instead of the network."""
    import openai  # here: the SDK's import (~1 s) is not paid at collection

    llm = LlmClient(api_key=KEY, base_url="https://example.invalid/v1", model="m",
                    max_retries=0)
    llm._client = openai.OpenAI(api_key=KEY, base_url=llm.base_url, max_retries=0,
                                http_client=httpx.Client(
                                    transport=httpx.MockTransport(handler)))
    return llm


def test_http_errors_become_llm_error_without_the_key():
    """A 401 becomes LlmError with the status and a hint, and no key in the text."""
    def reject(request):
        assert request.headers["authorization"] == f"Bearer {KEY}"  # it was sent...
        return httpx.Response(401, json={"error": {
            "message": f"Incorrect API key provided: {KEY}", "type": "auth"}})
    with pytest.raises(LlmError) as info:
        _real_client_answering(reject).chat(HELLO)
    assert "HTTP 401" in str(info.value) and "TINYAGENT_API_KEY" in str(info.value)
    assert KEY not in str(info.value)  # ...but never shown


def test_connection_errors_say_what_to_check():
    """An unreachable endpoint becomes LlmError naming TINYAGENT_API_URL."""
    def down(request):
        raise httpx.ConnectError("connection refused", request=request)
    with pytest.raises(LlmError, match="TINYAGENT_API_URL"):
        _real_client_answering(down).chat(HELLO)


def test_tool_calls_are_parsed():
    """A response with tool calls becomes ToolCall objects with dict arguments."""
    def answer(request):
        return httpx.Response(200, json={
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None, "tool_calls": [{
                    "id": "call_1", "type": "function", "function": {
                        "name": "queryOrder",
                        "arguments": '{"order_id": "88231"}'}}]}}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}})
    response = _real_client_answering(answer).chat(HELLO)
    assert response.content == ""
    assert [(c.name, c.arguments) for c in response.tool_calls] == [
        ("queryOrder", {"order_id": "88231"})]
    assert response.usage.total_tokens == 59


def test_empty_messages_are_rejected():
    """chat([]) is a ValueError, not a provider error."""
    with pytest.raises(ValueError, match="at least one message"):
        LlmClient(offline=True).chat([])


@pytest.mark.parametrize("suffix,match", [
    ("+error", "HTTP 500"), ("+ratelimit", "HTTP 429"), ("+timeout", "timed out"),
    ("+malformed", "not valid Chat Completions JSON"),
])
def test_offline_failure_modes_surface_as_llm_error(suffix, match):
    """Each injected offline failure reaches the caller as one LlmError type."""
    with pytest.raises(LlmError, match=match):
        LlmClient(offline=True, model="bitmall-offline" + suffix).chat(HELLO)


def test_offline_call_goes_through_the_sdk():
    """The offline model answers through the real openai SDK, with usage counted."""
    response = LlmClient(offline=True).chat(HELLO)
    assert response.usage.prompt_tokens > 0
    assert response.tool_calls or response.content


@pytest.mark.parametrize("echo", [
    f"Incorrect API key provided: {KEY}.",
    f"api_key={KEY[:12]}... is not valid",  # a prefix of the key, as OpenAI prints
    "key a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4 rejected",  # a 32-hex key of another kind
    f"(Bearer {KEY})",
])
def test_key_like_text_in_provider_errors_is_masked(echo):
    """Whatever part of a key a provider echoes, the LlmError text masks it."""
    def reject(request):
        return httpx.Response(401, json={"error": {"message": echo, "type": "auth"}})
    with pytest.raises(LlmError) as info:
        _real_client_answering(reject).chat(HELLO)
    text = str(info.value)
    assert "***" in text and KEY[:10] not in text and "a1b2c3d4e5" not in text


ENV_NAMES = ["TINYAGENT_API_KEY", "TINYAGENT_API_URL", "TINYAGENT_MODEL",
             "TINYAGENT_OFFLINE", "TINYAGENT_TIMEOUT", "TINYAGENT_MAX_REPLY_TOKENS",
             "TINYAGENT_MAX_RETRIES"]


@pytest.fixture
def no_project_env(clean_env, monkeypatch):
    """clean_env, and no project-folder .env either (a developer may have one)."""
    monkeypatch.setattr("tinyagent.settings.PROJECT_DIR", clean_env / "no-project")
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    yield clean_env
    for name in ENV_NAMES:  # load_dotenv may have set some: undo
        monkeypatch.delenv(name, raising=False)


def test_a_dotenv_in_a_parent_folder_is_ignored(no_project_env, monkeypatch):
    """A .env above the working folder (not the project's) is never read: it could
    send the user's key to another URL."""
    (no_project_env / ".env").write_text(f"TINYAGENT_API_KEY={KEY}\n"
                                         "TINYAGENT_API_URL=http://evil.example/v1\n")
    (no_project_env / "work").mkdir()
    monkeypatch.chdir(no_project_env / "work")
    llm = LlmClient.from_env()
    assert llm.offline and llm.env_file is None


def test_the_project_folder_dotenv_is_read_and_named(no_project_env, monkeypatch):
    """From a sub-folder (a notebook's), the project's .env is used, and
    describe() says which file that was."""
    project = no_project_env / "project"
    (project / "notebooks").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")  # a checkout, not a wheel
    (project / ".env").write_text(f"TINYAGENT_API_KEY={KEY}\n")
    monkeypatch.setattr("tinyagent.settings.PROJECT_DIR", project)
    monkeypatch.chdir(project / "notebooks")
    llm = LlmClient.from_env()
    assert not llm.offline and llm.env_file == project / ".env"
    assert f"Settings from {project / '.env'}" in llm.describe()


def test_timeout_reply_cap_and_retries_come_from_the_environment(no_project_env,
                                                                 monkeypatch):
    """TINYAGENT_TIMEOUT, _MAX_REPLY_TOKENS and _MAX_RETRIES set the client, and
    describe() states the worst-case wait they add up to."""
    monkeypatch.setenv("TINYAGENT_API_KEY", KEY)
    monkeypatch.setenv("TINYAGENT_TIMEOUT", "7.5")
    monkeypatch.setenv("TINYAGENT_MAX_REPLY_TOKENS", "300")
    monkeypatch.setenv("TINYAGENT_MAX_RETRIES", "1")
    llm = LlmClient.from_env()
    assert (llm.timeout, llm.max_reply_tokens, llm.max_retries) == (7.5, 300, 1)
    assert "7.5s, 2 attempts (at most 16s)" in llm.describe()


@pytest.mark.parametrize("name,value", [("TINYAGENT_TIMEOUT", "soon"),
                                        ("TINYAGENT_TIMEOUT", "nan"),
                                        ("TINYAGENT_MAX_REPLY_TOKENS", "1.5"),
                                        ("TINYAGENT_MAX_REPLY_TOKENS", "0"),
                                        ("TINYAGENT_MAX_RETRIES", "-1")])
def test_a_bad_setting_in_the_environment_names_the_variable(no_project_env,
                                                             monkeypatch, name,
                                                             value):
    """A value that does not parse, or breaks its rule, is a ValueError naming the
    variable and the value, never a silent default."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"^{name} must be .*got '{value}'"):
        LlmClient.from_env()


def test_the_offline_model_accepts_tool_choice_and_max_tokens():
    """The offline model takes tool_choice and max_tokens as a provider does, and
    answers exactly as without them."""
    from tinyagent.offline import complete
    from tinyagent.tools import bitmall_tools

    request = {"model": "bitmall-offline", "messages": [m.to_dict() for m in HELLO],
               "tools": bitmall_tools().schemas()}
    plain = complete(request)
    both = complete({**request, "tool_choice": "auto", "max_tokens": 1024})
    assert both["choices"] == plain["choices"] and both["usage"] == plain["usage"]


def test_the_banner_speaks_chinese_when_asked():
    """describe(lang="zh") is the banner in Chinese; another language is refused."""
    llm = LlmClient(offline=True)
    assert "离线" in llm.describe(lang="zh") and "offline" in llm.describe()
    with pytest.raises(ValueError, match="'fr'"):
        llm.describe(lang="fr")


def test_a_dotenv_url_never_receives_the_key_from_the_shell(clean_env, monkeypatch):
    """A .env holding only TINYAGENT_API_URL, the key in the user's shell: refused
    in one line naming the file, without the key; the request is never sent."""
    monkeypatch.setenv("TINYAGENT_API_KEY", KEY)
    (clean_env / ".env").write_text("TINYAGENT_API_URL=http://127.0.0.1:9/v1\n")
    with pytest.raises(ValueError, match="sets TINYAGENT_API_URL, but the key comes "
                       "from the environment") as info:
        LlmClient.from_env()
    assert KEY not in str(info.value) and "\n" not in str(info.value)


def test_a_dotenv_sets_only_tinyagent_variables(clean_env, monkeypatch):
    """HTTP_PROXY (or any other variable) in a .env is not loaded: it would route
    the requests, the key in their header, through the file's proxy."""
    monkeypatch.delenv("HTTP_PROXY", raising=False)
    monkeypatch.delenv("HTTPS_PROXY", raising=False)
    (clean_env / ".env").write_text(f"TINYAGENT_API_KEY={KEY}\n"
                                    "HTTP_PROXY=http://127.0.0.1:9\n"
                                    "HTTPS_PROXY=http://127.0.0.1:9\n")
    llm = LlmClient.from_env()
    monkeypatch.delenv("TINYAGENT_API_KEY", raising=False)  # the file set it: undo
    assert not llm.offline
    import os

    assert "HTTP_PROXY" not in os.environ and "HTTPS_PROXY" not in os.environ
