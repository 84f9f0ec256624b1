"""Settings for a real model: which `.env` file, the timeout and the reply cap, and
addresses safe to print.

Introduced in notebook 00, with `LlmClient.from_env()`. A `.env` is read from the
working folder or from the project folder (notebooks run in notebooks/ and find the
project's), never from a parent folder: a `.env` planted higher up could point the
URL elsewhere, and the user's real key would travel with the requests. Left out:
config files in the home folder and per-profile settings.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PROJECT_DIR = Path(__file__).resolve().parents[1]  # the checkout (editable install)
MAX_TIMEOUT = 3600.0  # seconds; longer is a hung server (and overflows some sockets)
ENV_NUMBERS = {"TINYAGENT_TIMEOUT": "timeout",  # variable -> LlmClient argument
               "TINYAGENT_MAX_REPLY_TOKENS": "max_reply_tokens",
               "TINYAGENT_MAX_RETRIES": "max_retries"}


def find_env_file(cwd: Path | None = None) -> Path | None:
    """The `.env` to load: the working folder's, else the project folder's, or None."""
    folders = [cwd or Path.cwd()]
    if (PROJECT_DIR / "pyproject.toml").is_file():  # not when installed as a wheel
        folders.append(PROJECT_DIR)
    for folder in folders:
        if (folder / ".env").is_file():
            return folder / ".env"
    return None


def check_timeout(value: Any, name: str = "timeout") -> float:
    """Seconds to wait for one attempt: a finite number in (0, 3600]."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise ValueError(f"{name} must be a number of seconds, more than 0 and at "
                         f"most {MAX_TIMEOUT:g}, got {value!r}")
    return float(value)


def timeout_argument(text: str) -> float:
    """The type of a --timeout option (argparse): check_timeout on the number."""
    import argparse

    try:
        return check_timeout(float(text), "--timeout")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_count(value: Any, name: str, minimum: int) -> int:
    """A whole number >= minimum (True and 1.5 are not counts)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return value


def numbers_from_env() -> dict[str, Any]:
    """LlmClient arguments set by TINYAGENT_TIMEOUT, _MAX_REPLY_TOKENS, _MAX_RETRIES.

    A value that does not parse, or breaks the argument's rule, is an error naming
    the variable, not a silent default.
    """
    found: dict[str, Any] = {}
    for variable, argument in ENV_NUMBERS.items():
        text = os.environ.get(variable, "").strip()
        if not text:
            continue
        try:
            if argument == "timeout":
                found[argument] = check_timeout(float(text), variable)
            else:
                found[argument] = check_count(int(text), variable,
                                              0 if argument == "max_retries" else 1)
        except ValueError:
            rule = (f"a number of seconds, more than 0 and at most {MAX_TIMEOUT:g}"
                    if argument == "timeout" else "a whole number")
            raise ValueError(f"{variable} must be {rule}, got {text!r}") from None
    return found


def mask_url(url: str) -> str:
    """`url` with any user:password part hidden: http://u:key@host -> http://***@host."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]))


def url_secret(url: str) -> str | None:
    """The password (or lone user name) written inside `url`, to mask in messages."""
    parts = urlsplit(url)
    return parts.password or parts.username or None


# The notebook banner, in English and in Chinese (notebooks/zh).
BANNER = {
    "en": {"file": "Settings from {}.", "gap": " ",
           "environment": "Settings from the environment (no .env file).",
           "offline": "Using the offline BitMall model (deterministic, no network). "
                      "Set TINYAGENT_API_KEY to use a real model.",
           "real": "Using a real model: {model} at {where}. {source}\nEach call waits "
                   "{timeout:g}s, {attempts} attempt{s} (at most {wait:.0f}s); replies "
                   "are capped at {cap} tokens."},
    "zh": {"file": "设置来自 {}。", "gap": "",
           "environment": "设置来自环境变量（没有 .env 文件）。",
           "offline": "使用离线的 BitMall 模型（结果确定，不联网）。"
                      "设置 TINYAGENT_API_KEY 即可改用真实模型。",
           "real": "使用真实模型：{model}，地址 {where}。{source}\n每次调用最多等 "
                   "{timeout:g} 秒，共 {attempts} 次尝试（最多 {wait:.0f} 秒）；"
                   "回复最多 {cap} 个 token。"},
}
