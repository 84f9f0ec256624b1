"""Addresses safe to print: one mask for model and database URLs, and their secrets.

Introduced in notebook 00 (the banner names the model's URL) and used again in
notebook 09 (a store's errors name its database). People type passwords as they
are, unencoded: `postgresql://bitmall:p@ss#1/x@db/support` holds the password
`p@ss#1/x`. So the rules here never trust the first `@`, `/`, `?` or `#`:

- the user part ends at the *last* `@` of the address (after the secret query values
  are set aside, since a query value may hold an `@` too);
- a secret query value (`?password=`, `?api-key=`) runs to the next `&` or `;`,
  through any `#`, space or `?` it holds;
- what must not be printed is the password as written, percent-decoded and
  percent-encoded, and every piece of it between two of those characters: a driver
  that splits the address elsewhere may quote any piece (`failed to resolve host
  'ss#1/x@db'`).

Left out: passwords in a PostgreSQL keyword string (`host=db password=...`), and
pieces shorter than three characters, which would mask ordinary words.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

# Query parameters that carry a secret (`?api-key=...`, `?password=...`).
SECRET_PARAM = re.compile(r"([?&;](?:password|passwd|pass|api[-_]?key|key|token|"
                          r"access[-_]?token|secret|sig|signature)=)([^&;]*)", re.I)
# Where a driver may cut a password it misreads as part of the address.
CUTS = re.compile(r"[@#/?:&;=%\s]+")
# A user name shown beside a masked password holds none of these; else the whole
# user part is hidden (it is more likely the start of a password).
NOT_A_USER = re.compile(r"[@/?#\s]")
MIN_PIECE = 3  # shorter pieces are not masked alone: they would hide ordinary words


def _split_user(url: str) -> tuple[str, str | None, str]:
    """(scheme://, user info or None, the rest). The last "@" ends the user info,
    so a password holding "#", "/", "?" or "@" unencoded is still all found; an
    "@" inside a secret query value does not count."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url, None, ""
    # the secret values blanked, same length: an "@" in them is not the user's end
    blank = SECRET_PARAM.sub(lambda m: m.group(1) + " " * len(m.group(2)), rest)
    end = blank.rfind("@")
    if end < 0:
        return scheme + sep, None, rest
    return scheme + sep, rest[:end], rest[end + 1:]


def _user_and_password(info: str) -> tuple[str | None, str]:
    """(user name to show or None, the secret): `user:password` keeps the user
    unless it looks like part of a password; a lone user part is the secret."""
    user, colon, password = info.partition(":")
    if colon and not NOT_A_USER.search(user):
        return user, password
    return None, info


def mask_url(url: str) -> str:
    """`url` with every secret `url_secrets` finds hidden, for messages and keys.

    One rule for model and database URLs: a password becomes *** and the user name
    before it stays (it names an account, and tells two accounts apart); a user part
    without a password is hidden whole, because an http URL carries a token there
    (https://TOKEN@host); secret query values (`?password=`, `?key=`) become ***.

    >>> mask_url("postgresql://bitmall:s3cret@db/support")
    'postgresql://bitmall:***@db/support'
    >>> mask_url("https://sk-123@api.example.com/v1?api-key=abc")
    'https://***@api.example.com/v1?api-key=***'
    >>> mask_url("postgresql://bitmall:p@ss#1/x@db/support?password=a b#c")
    'postgresql://bitmall:***@db/support?password=***'
    """
    head, info, rest = _split_user(url)
    if info is not None:
        user, _ = _user_and_password(info)
        head += "***@" if user is None else f"{user}:***@"
    return SECRET_PARAM.sub(r"\1***", head + rest)


class Piece(str):
    """A piece of a secret, cut at a `CUTS` character: masked only where it stands
    alone, so that the piece "pass" of `wrong@pass` leaves the word "password"."""


def url_secrets(url: str) -> list[str]:
    """What inside `url` must never be printed, longest first: the password (or a
    lone user part) and secret query values, each as written, percent-decoded and
    percent-encoded, then the `Piece`s of them between two `CUTS` characters."""
    found = [match.group(2) for match in SECRET_PARAM.finditer(url)]
    _, info, _ = _split_user(url)
    if info is not None:
        found.append(_user_and_password(info)[1])
    written = {form for s in found for form in (s, unquote(s))}
    forms = written | {quote(s, "") for s in written}
    pieces = {Piece(p) for s in written for p in CUTS.split(s)} - forms
    # longest first, so a secret is never half-masked by a shorter one inside it
    return sorted((s for s in forms | pieces if len(s) >= MIN_PIECE),
                  key=lambda s: (-len(s), isinstance(s, Piece), s))


def url_secret(url: str) -> str | None:
    """The password (or lone user name) written inside `url`, to mask in messages."""
    return next(iter(url_secrets(url)), None)


def scrub(text: str, secrets: list[str]) -> str:
    """`text` with every one of `secrets` replaced by ***; a `Piece` only where it
    is not glued to a letter or digit."""
    for secret in secrets:
        if isinstance(secret, Piece):
            text = re.sub(rf"(?<![^\W_]){re.escape(secret)}(?![^\W_])", "***", text)
        else:
            text = text.replace(secret, "***")
    return text


def mask_path(path: str) -> str:
    """A SQLite path as an error may show it: a user part or a secret query value
    written into it (`sqlite://user:pw@/x.db`, `x.db?password=...`) masked."""
    return mask_url("sqlite://" + path).removeprefix("sqlite://")


def encoded_password_url(url: str) -> str:
    """`url` with its user part percent-encoded, so that a driver that splits the
    address at the first `@` or `/` reads the password whole (and never quotes a
    piece of it in an error). An address without a user part is returned as is."""
    head, info, rest = _split_user(url)
    if info is None:
        return url
    user, colon, password = info.partition(":")
    encoded = quote(unquote(user), "") + (":" + quote(unquote(password), "")
                                         if colon else "")
    return f"{head}{encoded}@{rest}"
