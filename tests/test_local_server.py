"""scripts/local_server.py: the parts that need no model (the loop guard, a
request refused with a clear message). The model itself runs in CI's real-model
check (.ci/real_model.sh)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import local_server  # noqa: E402


@pytest.mark.parametrize(("text", "loops"), [
    ("- order 88231\n- refund RF1\n- order 88231\n", True),
    ("- order 88231\n- refund RF1\n", False),
    ("- order 88231\n- order 88231", False),  # the line is not finished yet
    ("Hello.\n\nHello.\n", True),  # blank lines do not hide a repeat
    ("", False)])
def test_a_finished_line_that_repeats_an_earlier_one_is_a_loop(text, loops):
    """Greedy decoding loops on whole lines; the server stops at the first repeat."""
    assert local_server.repeats_a_line(text) is loops


def test_the_repeated_line_is_dropped_from_the_reply():
    """The reply keeps everything before the repeat, and nothing else changes."""
    assert local_server.drop_repeat("- a\n- b\n- a\n") == "- a\n- b"
    assert local_server.drop_repeat("- a\n- b") == "- a\n- b"


class NoModel(local_server.Model):
    def __init__(self):  # the checks before the model is touched need none
        pass


@pytest.mark.parametrize(("request_body", "message"), [
    ({"messages": [], "stream": False}, "messages must be a non-empty list"),
    ({"messages": [{"role": "user", "content": "hi"}], "stream": True},
     "streaming is not supported")])
def test_a_request_the_server_cannot_serve_gets_a_clear_400(request_body, message):
    """Streaming and an empty message list are refused with a one-line reason."""
    with pytest.raises(local_server.BadRequest, match=message):
        NoModel().complete(request_body)
