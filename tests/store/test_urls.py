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


@pytest.mark.parametrize("url", ["", "   ", "sqlite:///", "sqlite:/// ", "a\x00b.db"])
def test_a_name_that_opens_no_lasting_file_is_refused(url):
    """'' would open SQLite's private temporary database: every write gone at exit."""
    with pytest.raises(ConfigError, match="^db: "):
        parse_db_url(url)


@pytest.mark.parametrize("how", ["--db", "env", "config"])
def test_an_empty_db_setting_stores_nothing_and_says_so(tmp_path, monkeypatch, how):
    """`memlane --db "" add …`, `MEMLANE_DB= memlane add …` and `db = ""` printed 'message 1
    added' (exit 0) into a temporary database (or into ./memlane.db for --db "")."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    args = ["add", "hello", "--scope", "s"]
    if how == "--db":
        args = ["--db", "", *args]
    elif how == "env":
        monkeypatch.setenv("MEMLANE_DB", "")
    else:
        (tmp_path / "memlane.toml").write_text('[memory]\ndb = ""\n')
    result = CliRunner().invoke(cli, args)
    # named as given (session 24): the option, the variable or the file's key
    named = {"--db": "--db", "env": "MEMLANE_DB", "config": "memory.db"}[how]
    assert result.exit_code == 1 and f"{named}: '' names no database file" in result.output
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "memlane.toml"])


@pytest.mark.parametrize("args", [["copy", "--from", "{src}", "--to", ""],
                                  ["copy", "--from", "{src}", "--to", "sqlite:///"],
                                  ["--db", "", "migrate"]])
def test_copy_and_migrate_refuse_an_empty_name(tmp_path, monkeypatch, args):
    """`memlane copy --to ""` copied into a temporary database and reported success."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli
    from memlane.testing import memory

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "src.db"
    with memory(src) as mem:
        mem.add_message("s", "user", "hello")
    result = CliRunner().invoke(cli, [a.replace("{src}", str(src)) for a in args])
    assert result.exit_code == 1 and "names no database file" in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("src.db")) == []


@pytest.mark.parametrize("how", ["--db", "config"])
def test_a_home_relative_name_opens_the_home_folders_file(tmp_path, monkeypatch, how):
    """`db = "~/m.db"` (a config file or an MCP client's JSON: no shell expands the ~)
    passed the CLI's existence check, which expands it, then failed in SQLite: 'unable
    to open database file'."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    home = tmp_path / "home"
    (home / "mem").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    assert parse_db_url("~/mem/m.db").location == str(home / "mem" / "m.db")
    assert parse_db_url("sqlite:///~/mem/m.db").location == str(home / "mem" / "m.db")
    pre = ["--db", "~/mem/m.db"] if how == "--db" else []
    if how == "config":
        (tmp_path / "memlane.toml").write_text('[memory]\ndb = "~/mem/m.db"\n')
    result = CliRunner().invoke(cli, [*pre, "add", "hello", "--scope", "s"])
    assert result.exit_code == 0, result.output
    assert (home / "mem" / "m.db").is_file() and not (tmp_path / "~").exists()
    result = CliRunner().invoke(cli, [*pre, "stats", "--json"])
    assert result.exit_code == 0 and '"messages": 1' in result.output


@pytest.mark.parametrize("args", [["mcp", "--db", ""], ["serve", "--db", ""]])
def test_mcp_and_serve_refuse_an_empty_db_option(tmp_path, monkeypatch, args):
    """`memlane mcp --db ""` served ./memlane.db (or the config's db) instead."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and "db: '' names no database file" in result.output, result.output
    assert list(tmp_path.iterdir()) == []
