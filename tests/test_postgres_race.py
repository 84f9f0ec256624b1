"""Four real processes open one empty PostgreSQL database at the same moment.

Each creates the store's tables if they are missing, then opens the same session and
adds a turn. Without one creator at a time, two CREATE TABLE IF NOT EXISTS collide
in PostgreSQL's catalogue (a duplicate key on pg_type) and a process fails; two
creators of one session would make two rows or lose a turn. Needs a server
(TINYAGENT_TEST_POSTGRES_URL, which .ci/postgres.sh sets): it skips without one."""

import subprocess
import sys
import time

from _stores import postgres_url

PROCESSES = 4
WAIT = 120  # seconds: reached only when a child hangs; then it fails with its output
CHILD = """
import sys
from tinyagent import ChatMessage, InMemoryChatMemory
from tinyagent.production import SessionManager
from tinyagent.storage import open_store

url, n = sys.argv[1], sys.argv[2]
print("ready", flush=True)
sys.stdin.readline()  # the parent says go when every process is ready
with open_store(url) as store:
    session = SessionManager(store, InMemoryChatMemory, "inmemory").open("shared")
    session.add_all([ChatMessage.user(f"question {n}"),
                     ChatMessage.assistant(f"answer {n}")])
print("done", flush=True)
"""


def test_four_processes_create_the_tables_and_one_session_together():
    """All four open the empty database at once: every one succeeds, the session
    exists once and holds the four turns, each whole."""
    with postgres_url() as url:
        children = [subprocess.Popen([sys.executable, "-c", CHILD, url, str(n)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                    for n in range(PROCESSES)]
        try:
            for child in children:  # a state, not a time: each has imported all
                line = child.stdout.readline()
                assert line == "ready\n", child.communicate(timeout=WAIT)[1]
            for child in children:  # as close together as the parent can
                child.stdin.write("go\n")
                child.stdin.flush()
            started = time.monotonic()
            results = [child.communicate(timeout=WAIT) for child in children]
        finally:
            for child in children:
                if child.poll() is None:
                    child.kill()
        failed = [err for child, (_, err) in zip(children, results, strict=True)
                  if child.returncode != 0]
        assert not failed, failed[0][-3000:]
        assert time.monotonic() - started < WAIT
        from tinyagent.storage import open_store

        with open_store(url) as store:
            assert [s.name for s in store.sessions()] == ["shared"]
            texts = [m.content for m in store.messages("shared")]
    assert sorted(texts) == sorted(f"{kind} {n}" for n in range(PROCESSES)
                                   for kind in ("question", "answer"))
    for n in range(PROCESSES):  # each turn whole: its answer right after its question
        assert texts[texts.index(f"question {n}") + 1] == f"answer {n}"

