"""``parse_db_url``: the one place that reads a database URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlane.errors import ConfigError
from memlane.store import DatabaseUrl, open_store, parse_db_url


@pytest.mark.parametrize("url, expected", [
    ("memlane.db", DatabaseUrl("sqlite", "memlane.db")),
    (Path("/tmp/x.db"), DatabaseUrl("sqlite", "/tmp/x.db")),
    ("sqlite:///var/m.db", DatabaseUrl("sqlite", "var/m.db")),
    ("sqlite:////var/m.db", DatabaseUrl("sqlite", "/var/m.db")),
    ("postgresql://u@127.0.0.1/db", DatabaseUrl("postgres", "postgresql://u@127.0.0.1/db")),
    ("postgres://u@127.0.0.1/db", DatabaseUrl("postgres", "postgres://u@127.0.0.1/db")),
])
def test_urls_are_classified(url, expected):
    assert parse_db_url(url) == expected
    assert parse_db_url(url).is_postgres == (expected.backend == "postgres")


def test_an_unknown_scheme_names_the_field():
    with pytest.raises(ConfigError, match=r"db: unknown database URL scheme in 'mysql://h/d'"):
        parse_db_url("mysql://h/d")


def test_open_store_opens_what_the_url_names(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'u.db'}")
    try:
        assert store.backend == "sqlite" and (tmp_path / "u.db").is_file()
    finally:
        store.close()
