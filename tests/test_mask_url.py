"""Rules of the one URL mask: what a model or database URL may show in any output."""

import pytest

from tinyagent.settings import check_count, mask_url, url_secrets
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
