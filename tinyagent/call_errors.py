"""What a failed model call says: the cause, what to check, and never a secret.

Introduced with `LlmClient` in notebook 00. A provider's error text may echo the key
it rejected; a network error may have happened before the server was reached or in
the middle of its reply, and the two call for different fixes. Each message here is
one line. Left out: translating provider error codes beyond the HTTP status.
"""

from __future__ import annotations

import re
from typing import Any

from .http_limits import ORIGINAL_RETRY_AFTER
from .messages import clip

KEY_LIKE = re.compile(r"(sk-|Bearer\s+)[\w.-]+|\b[\w-]{32,}\b")


def short(exc: Exception, secrets: list[str]) -> str:
    """The provider's message, clipped, with our key and anything key-like masked.

    Providers echo part or all of a rejected key ("Incorrect API key provided:
    sk-abc…"); it must not reach a notebook output or a log line.
    """
    text = str(getattr(exc, "message", exc)).replace("\n", " ")
    for secret in secrets:
        text = text.replace(secret, "***")
    return KEY_LIKE.sub("***", text)[:200]


def hint(status: int, response: Any) -> str:
    headers = response.headers
    wait = clip(headers.get("retry-after") or headers.get(ORIGINAL_RETRY_AFTER) or "",
                40)
    if status == 429 and wait:  # seconds, or an HTTP date
        wait = f"{wait} s" if wait.isdigit() else f"until {wait}"
        return f"Rate limited: the server asks to wait {wait}, then retry."
    return {400: "The provider rejected the request itself: check the messages sent "
                 "(e.g. a tool result without its call).",
            401: "Check TINYAGENT_API_KEY.", 403: "Check the key's permissions.",
            404: "Check TINYAGENT_API_URL and TINYAGENT_MODEL.",
            429: "Rate limited: wait, or lower the request rate."}.get(
        status, "Check the provider's status, TINYAGENT_API_URL and TINYAGENT_MODEL.")


def connection_problem(error: BaseException | None, where: str) -> str:
    """Why a call got no usable reply, from the HTTP library's error: the server was
    never reached, or it was and broke off or sent a body that cannot be read."""
    kind = type(error).__name__
    detail = clip(str(error), 120) if error is not None else ""
    if kind == "DecodingError":
        return (f"the server at {where} answered with a body that cannot be read "
                f"({detail}); check the server or the proxy in front of it")
    if kind in ("RemoteProtocolError", "ReadError", "WriteError"):
        return (f"the server at {where} broke the connection before its reply was "
                f"complete ({detail}); check the server's logs, then try again")
    return (f"cannot reach {where}; check TINYAGENT_API_URL and the network (or run "
            "offline)")
