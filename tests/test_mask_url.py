"""Rules of the one URL mask: what a model or database URL may show in any output."""

import pytest

from tinyagent.settings import check_count, mask_url, scrub, url_secrets
from tinyagent.storage import safe_url

URLS = [
    "postgresql://bitmall:s3cret@db.internal:5432/support",
    "postgresql://u:pa#ss9/x@127.0.0.1:1/db",
    "postgresql://u@127.0.0.1:1/db?password=hunter2",
    "https://sk-live-123456@api.example.com/v1",
    "https://user:sk-live-123456@api.example.com/v1?api-key=abcdef&model=q",
    "http://127.0.0.1:8000/v1?token=t0k3n#frag",
]


@pytest.mark.parametrize("url", URLS)
def test_no_secret_of_a_url_survives_the_mask(url):
    """Every secret url_secrets finds (password, lone user part, secret query value)
    is absent from mask_url(url), and safe_url is the same mask."""
    assert url_secrets(url)
    shown = mask_url(url)
    assert "***" in shown and not any(s in shown for s in url_secrets(url))
    assert safe_url(url) == shown


def test_the_user_name_beside_a_password_stays_and_the_rest_is_kept():
    """user:password shows user:***, so two accounts stay apart; host, port, path and
    harmless query values are untouched."""
    assert (mask_url("https://user:k3y@api.example.com:443/v1?key=abc&model=q")
            == "https://user:***@api.example.com:443/v1?key=***&model=q")
    assert mask_url("sqlite:///srv/sessions.db") == "sqlite:///srv/sessions.db"


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "3"])
def test_check_count_names_the_argument_first(value):
    """check_count(name, value, minimum): the error names the argument and value."""
    with pytest.raises(ValueError, match=f"^max_retries must be a whole number >= 1, "
                                         f"got {value!r}"):
        check_count("max_retries", value, 1)
    assert check_count("max_retries", 3, 1) == 3


# A password as people type it: each character that a URL parser may cut at, or that
# needs encoding, between two pieces that must not be printed either.
CHARACTERS = ["@", "#", "/", "?", ":", " ", "é", "密", "%", "%zz", "@@:/?# "]


def password(char):
    return f"Sx9q{char}Kw7z"


def leaked(text, char):
    """The parts of password(char) found in `text`: whole, encoded, or a piece."""
    from urllib.parse import quote

    whole = password(char)
    return [s for s in (whole, quote(whole, ""), "Sx9q", "Kw7z") if s in text]


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("char", CHARACTERS)
def test_no_piece_of_a_password_survives_the_mask(char):
    """Whatever the password holds, mask_url shows none of it, in the user part or
    in a secret query value, for database and model URLs alike; the host stays, and
    so does the user name beside a password."""
    secret = password(char)
    for url in (f"postgresql://bob:{secret}@db.internal:5432/x",
                f"sqlite://bob:{secret}@/srv/x.db",
                f"https://bob:{secret}@api.example.com/v1",
                f"http://127.0.0.1:8000/v1?api-key={secret}",
                f"postgresql://bob@db/x?sslmode=require&password={secret}"):
        shown = mask_url(url)
        assert not leaked(shown, char), (url, shown)
        host = url.split("@")[-1].split("/")[0] if "bob:" in url else "/"
        assert "***" in shown and host in shown and ("bob:" in url) == ("bob" in shown)


@pytest.mark.parametrize("char", CHARACTERS)
def test_database_commands_print_no_piece_of_the_password(char, capsys, monkeypatch,
                                                          tmp_path):
    """`sessions list` and `chat --session` on a PostgreSQL server that is not there
    and on SQLite paths that cannot be opened: one line on stderr, and nothing of
    the password in anything printed, even where the driver quotes what it took
    for the host."""
    import io

    from tinyagent.course.cli import main

    pytest.importorskip("psycopg")
    secret = password(char)
    urls = [f"postgresql://bob:{secret}@127.0.0.1:{free_port()}/db",
            f"sqlite://bob:{secret}@{tmp_path}/missing/x.db",
            f"{tmp_path}/missing/x.db?password={secret}"]
    for url in urls:
        for argv in (["sessions", "list", "--db", url],
                     ["chat", "--memory", "window", "--session", "s", "--db", url]):
            monkeypatch.setattr("sys.stdin", io.StringIO("hello\n"))
            assert main(argv) == 1
            out, err = capsys.readouterr()
            assert err.startswith("error: ") and not leaked(out + err, char), err


@pytest.mark.parametrize("char", CHARACTERS)
def test_a_model_url_error_prints_no_piece_of_the_password(char):
    """A model URL whose password holds the character: refused with a masked
    address, or accepted and then failing to connect; the banner, the repr and the
    error show nothing of it."""
    from tinyagent import LlmClient
    from tinyagent.llm import LlmError
    from tinyagent.messages import ChatMessage

    secret = password(char)
    for url in (f"http://bob:{secret}@127.0.0.1:{free_port()}/v1",
                f"http://127.0.0.1:{free_port()}/v1?api-key={secret}"):
        try:
            llm = LlmClient(api_key="sk-test-0", base_url=url, max_retries=0,
                            timeout=2.0)
        except ValueError as exc:
            shown = [str(exc)]
        else:
            shown = [llm.describe(), repr(llm)]
            with pytest.raises(LlmError) as info:
                llm.chat([ChatMessage.user("hi")])
            shown.append(str(info.value))
        for text in shown:
            assert not leaked(text, char), text


def test_a_driver_message_loses_every_piece_of_the_password():
    """What a driver says is scrubbed of the password and of each piece of it that
    stands alone (libpq, splitting at the first "@", quotes 'Kw7z@db' as a host),
    but not of a word that merely holds a piece ("password" holding "pass")."""
    secrets = url_secrets("postgresql://bob:wrong@pass#Kw7z@db/x")
    said = ("failed to resolve host 'pass#Kw7z@db'; password authentication failed "
            "for wrong@pass#Kw7z")
    assert scrub(said, secrets) == ("failed to resolve host '***#***@db'; password "
                                    "authentication failed for ***")


def test_a_password_that_needs_encoding_reaches_the_server_whole():
    """libpq splits a URL at its first "@": the store gives it the user part
    percent-encoded, so `user:p@ss#/x? é@host` connects as that user (a server set
    up by .ci/postgres.sh trusts its local users, so a wrong split shows as a bad
    host, not as a bad password)."""
    import os

    from tinyagent.redact import encoded_password_url

    assert (encoded_password_url("postgresql://bob:p@ss#/x é@db:5432/x?a=b")
            == "postgresql://bob:p%40ss%23%2Fx%20%C3%A9@db:5432/x?a=b")
    assert encoded_password_url("postgresql://db/x") == "postgresql://db/x"
    url = os.environ.get("TINYAGENT_TEST_POSTGRES_URL")
    if not url:
        return  # the rest needs a server (see tests/_stores.py)
    from tinyagent.storage import open_store

    head, _, rest = url.partition("://")
    user, _, host = rest.rpartition("@")
    with open_store(f"{head}://{user.split(':')[0]}:{password('@@:/?# ')}@{host}") \
            as store:
        assert store.sessions() is not None
