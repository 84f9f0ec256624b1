"""Every store the contract tests run on: a SQLite file, and PostgreSQL when a server
is given. Not a test module: test files import `STORES` and `open_test_store`."""

import os
import uuid
from contextlib import contextmanager

import pytest

from tinyagent.storage import open_store

POSTGRES_ENV = "TINYAGENT_TEST_POSTGRES_URL"
HOW = (f"PostgreSQL tests need a server: set {POSTGRES_ENV}=postgresql://user@host/db "
       "and pip install -e \".[postgres]\" (.ci/run starts a throwaway server)")
STORES = ["sqlite", "postgres"]


@contextmanager
def postgres_url():
    """A URL to a fresh, empty schema on the test server; dropped afterwards."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(HOW)
    import psycopg  # with a server named, a missing driver is an error, not a skip

    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def store_url(kind, tmp_path):
    """The URL of an empty database of `kind` ("sqlite" or "postgres")."""
    if kind == "sqlite":
        yield str(tmp_path / "sessions.db")
    else:
        with postgres_url() as url:
            yield url


@contextmanager
def open_test_store(kind, tmp_path):
    with store_url(kind, tmp_path) as url, open_store(url) as store:
        yield store
