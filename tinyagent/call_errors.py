"""What a failed model call says: the cause, what to check, and never a secret.

Introduced with `LlmClient` in notebook 00. A provider's error text may echo the key
it rejected; a network error may have happened before the server was reached or in
the middle of its reply, and the two call for different fixes. Each message here is
one line, in the package's language (`set_lang`), read when the call fails. Left out:
translating provider error codes beyond the HTTP status, and the provider's own text.
"""

from __future__ import annotations

import re
from typing import Any

from .http_limits import ORIGINAL_RETRY_AFTER
from .lang import say
from .messages import clip

SDK_PREFIX = re.compile(r"^Error code: \d+ - ")  # the openai SDK's, before the text


def hint(status: int, response: Any) -> str:
    headers = response.headers
    wait = clip(headers.get("retry-after") or headers.get(ORIGINAL_RETRY_AFTER) or "",
                40)
    if status == 429 and wait:  # seconds, or an HTTP date
        seconds = wait.isdigit()
        return say(f"Rate limited: the server asks to wait "
                   f"{f'{wait} s' if seconds else f'until {wait}'}, then retry.",
                   f"请求过于频繁：服务器要求等待"
                   f"{f' {wait} 秒' if seconds else f'到 {wait}'}后再试。")
    texts = {400: ("The provider rejected the request itself: check the messages sent "
                   "(e.g. a tool result without its call).",
                   "服务商拒绝了请求本身：请检查发送的消息（例如缺少对应调用的工具结果）。"),
             401: ("Check TINYAGENT_API_KEY.", "请检查 TINYAGENT_API_KEY。"),
             403: ("Check the key's permissions.", "请检查密钥的权限。"),
             404: ("Check TINYAGENT_API_URL and TINYAGENT_MODEL.",
                   "请检查 TINYAGENT_API_URL 和 TINYAGENT_MODEL。"),
             429: ("Rate limited: wait, or lower the request rate.",
                   "请求过于频繁：请稍候，或降低请求频率。")}
    return say(*texts.get(status, (
        "Check the provider's status, TINYAGENT_API_URL and TINYAGENT_MODEL.",
        "请检查服务商的状态、TINYAGENT_API_URL 和 TINYAGENT_MODEL。")))


def http_failed(status: int, where: str, detail: str, response: Any) -> str:
    """An HTTP error status: the status, where, the provider's words, what to check.
    In Chinese the SDK's English prefix ("Error code: 401 - ") goes: the status is
    said already."""
    return say(f"model call failed: HTTP {status} from {where}: {detail}. ",
               f"模型调用失败：{where} 返回 HTTP {status}："
               f"{SDK_PREFIX.sub('', detail)}。") + hint(status, response)


def timed_out(timeout: float, where: str, attempts: int, waited: float) -> str:
    """Every attempt timed out: how long each waited, how many, the time in all."""
    return say(f"model call timed out after {timeout:g}s at {where} ({attempts} attempt"
               f"{'s' * (attempts > 1)}, {waited:.1f}s in all); check the server, or "
               "raise --timeout / TINYAGENT_TIMEOUT",
               f"模型调用超时：{where} 每次等待 {timeout:g} 秒（共 {attempts} 次尝试，"
               f"总计 {waited:.1f} 秒）；请检查服务器，或调大 --timeout / "
               "TINYAGENT_TIMEOUT")


def bad_reply(where: str, cause: Exception) -> str:
    """A 200 whose body is not a Chat Completions reply."""
    return say(f"the model at {where} sent a response that is not valid Chat "
               f"Completions JSON: {cause}",
               f"{where} 的模型返回的不是有效的 Chat Completions JSON：{cause}")


def offline_where() -> str:
    """How a message names the offline model."""
    return say("the offline model", "离线模型")


def connection_problem(error: BaseException | None, where: str) -> str:
    """Why a call got no usable reply, from the HTTP library's error: the server was
    never reached, or it was and broke off or sent a body that cannot be read."""
    kind = type(error).__name__
    detail = clip(str(error), 120) if error is not None else ""
    if kind == "DecodingError":
        return say(f"the server at {where} answered with a body that cannot be read "
                   f"({detail}); check the server or the proxy in front of it",
                   f"{where} 的服务器返回了无法读取的内容（{detail}）；"
                   "请检查服务器或它前面的代理")
    if kind in ("RemoteProtocolError", "ReadError", "WriteError"):
        return say(f"the server at {where} broke the connection before its reply was "
                   f"complete ({detail}); check the server's logs, then try again",
                   f"{where} 的服务器在回复完成前断开了连接（{detail}）；"
                   "请查看服务器日志后重试")
    return say(f"cannot reach {where}; check TINYAGENT_API_URL and the network (or run "
               "offline)", f"无法连接 {where}；请检查 TINYAGENT_API_URL 和网络"
               "（或改用离线模型）")
