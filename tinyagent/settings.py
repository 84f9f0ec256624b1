"""Settings for a real model: which `.env` file, the timeout and the reply cap.

Introduced in notebook 00, with `LlmClient.from_env()`. A `.env` is read from the
working folder or from the project folder (notebooks run in notebooks/ and find the
project's), never from a parent folder: a `.env` planted higher up could point the
URL elsewhere, and the user's real key would travel with the requests. Addresses
safe to print are redact.py's (re-exported here). Left out: config files in the home
folder and per-profile settings.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from .lang import Pair, say
from .redact import mask_url, scrub, url_secret, url_secrets

__all__ = ["BANNER", "check_api_key", "check_count", "check_timeout", "check_url",
           "find_env_file", "load_env_file", "mask_url", "numbers_from_env", "scrub",
           "timeout_argument", "url_secret", "url_secrets"]

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


def load_env_file(path: Path | None) -> None:
    """Put the TINYAGENT_* settings of the `.env` at `path` into the environment,
    where the real environment has none.

    Only TINYAGENT_*: a `.env` that set HTTP_PROXY would route every request, the
    key in its header, through a proxy of the file's choosing. And a `.env` that
    chooses the URL must also hold the key: else the key from the user's shell would
    travel to an address that a file in the working folder picked.
    """
    if path is None:
        return
    from dotenv import dotenv_values

    found = {name: value for name, value in dotenv_values(path).items()
             if name.startswith("TINYAGENT_") and value}
    url_from_file = "TINYAGENT_API_URL" in found and not os.environ.get(
        "TINYAGENT_API_URL")
    key = os.environ.get("TINYAGENT_API_KEY")
    if url_from_file and key and key != found.get("TINYAGENT_API_KEY", key + "x"):
        raise ValueError(say(
            f"{path} sets TINYAGENT_API_URL, but the key comes from the environment, "
            "so it would go to an address that file chose: put TINYAGENT_API_KEY in "
            f"{path.name} too, or set TINYAGENT_API_URL in the environment",
            f"{path} 设置了 TINYAGENT_API_URL，但密钥来自环境变量，"
            "会被发往这个文件选定的地址：请把 TINYAGENT_API_KEY 也写进 "
            f"{path.name}，或在环境变量中设置 TINYAGENT_API_URL"))
    for name, value in found.items():
        os.environ.setdefault(name, value)


def check_api_key(key: str | None) -> str | None:
    """The key, stripped; a character that cannot go into an HTTP header (a
    typographic quote, a non-breaking space, pasted with it) is named, never shown."""
    if key is None:
        return None
    key = key.strip()
    for position, char in enumerate(key, 1):
        if not 33 <= ord(char) < 127:
            import unicodedata

            what = unicodedata.name(char, "a control character").lower()
            raise ValueError(say(
                f"TINYAGENT_API_KEY holds U+{ord(char):04X} ({what}) at position "
                f"{position}, which cannot be sent: paste the key again as plain text, "
                "without quotes or spaces",
                f"TINYAGENT_API_KEY 的第 {position} 个字符是 U+{ord(char):04X}，"
                "无法发送：请以纯文本重新粘贴密钥，不要带引号或空格"))
    return key


def check_url(url: str) -> str:
    """An http(s) address with a host; else a ValueError that shows it masked."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 (raises for a password cut at "#", "/" or "?")
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(say(
            f"TINYAGENT_API_URL {mask_url(url)!r} is not an http(s) address with a "
            "host: write https://host/v1, and percent-encode a password's #, / and ? "
            "(%23, %2F, %3F)",
            f"TINYAGENT_API_URL {mask_url(url)!r} 不是带主机名的 http(s) 地址：请写成 "
            "https://host/v1，密码中的 #、/ 和 ? 要写成 %23、%2F、%3F"))
    return url


def check_timeout(value: Any, name: str = "timeout") -> float:
    """Seconds to wait for one attempt: a finite number in (0, 3600]."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise ValueError(say(f"{name} must be a number of seconds, more than 0 and "
                             f"at most {MAX_TIMEOUT:g}, got {value!r}",
                             f"{name} 必须是秒数，大于 0 且不超过 {MAX_TIMEOUT:g}，"
                             f"收到的是 {value!r}"))
    return float(value)


def timeout_argument(text: str) -> float:
    """The type of a --timeout option (argparse): check_timeout on the number."""
    import argparse

    try:
        return check_timeout(float(text), "--timeout")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_count(name: str, value: Any, minimum: int) -> int:
    """`value` if it is a whole number >= minimum (True and 1.5 are not counts).

    Name first, as in the memories' `check_size`: the error names it.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(say(
            f"{name} must be a whole number >= {minimum}, got {value!r}",
            f"{name} 必须是 >= {minimum} 的整数，收到的是 {value!r}"))
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
                found[argument] = check_count(variable, int(text),
                                              0 if argument == "max_retries" else 1)
        except ValueError:
            rule = (say(f"a number of seconds, more than 0 and at most "
                        f"{MAX_TIMEOUT:g}", f"秒数，大于 0 且不超过 {MAX_TIMEOUT:g}")
                    if argument == "timeout" else say("a whole number", "整数"))
            raise ValueError(say(f"{variable} must be {rule}, got {text!r}",
                                 f"{variable} 必须是{rule}，收到的是 {text!r}")
                             ) from None
    return found


# The notebook banner, in English and in Chinese (notebooks/zh).
BANNER = Pair(
    {"file": "Settings from {}.", "gap": " ",
           "environment": "Settings from the environment (no .env file).",
           "offline": "Using the offline BitMall model (deterministic, no network). "
                      "Set TINYAGENT_API_KEY to use a real model.",
           "real": "Using a real model: {model} at {where}. {source}\nEach call waits "
                   "{timeout:g}s, {attempts} attempt{s} (at most {wait:.0f}s); replies "
                   "are capped at {cap} tokens."},
    {"file": "设置来自 {}。", "gap": "",
           "environment": "设置来自环境变量（没有 .env 文件）。",
           "offline": "使用离线的 BitMall 模型（结果确定，不联网）。"
                      "设置 TINYAGENT_API_KEY 即可改用真实模型。",
           "real": "使用真实模型：{model}，地址 {where}。{source}\n每次调用最多等 "
                   "{timeout:g} 秒，共 {attempts} 次尝试（最多 {wait:.0f} 秒）；"
                   "回复最多 {cap} 个 token。"})
