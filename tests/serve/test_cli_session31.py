"""Session 31: the docs pages a user reads after the README, walked (docs/hardening.md)."""

from __future__ import annotations

from click.testing import CliRunner

from memlane.serve.cli import cli


def test_a_missing_database_of_a_relative_sqlite_url_says_how_to_name_an_absolute_one(tmp_path, monkeypatch):
    """docs/store.md: ``sqlite:///path`` is SQLite. ``--db sqlite:///tmp/…/m.db`` names
    ``tmp/…/m.db`` under the current folder (three slashes, SQLAlchemy's reading), and the
    refusal said only ``database tmp/…/m.db does not exist``: a user who meant the absolute
    file, which existed, was not told why it was not read."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MEMLANE_DB", raising=False)
    real = tmp_path / "real.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(real), "add", "--scope", "s", "hello"]).exit_code == 0
    relative = str(real).lstrip("/")
    res = runner.invoke(cli, ["--db", f"sqlite:///{relative}", "stats"])
    assert res.exit_code != 0
    assert f"database {relative} does not exist" in res.output, res.output
    assert f"sqlite:////{relative} names /{relative}" in res.output, res.output
    absolute = runner.invoke(cli, ["--db", f"sqlite:////{relative}", "stats"])
    assert absolute.exit_code == 0, absolute.output
    for plain in (str(tmp_path / "none.db"), "none.db"):  # no URL: no word of URLs
        res = runner.invoke(cli, ["--db", plain, "stats"])
        assert res.exit_code != 0 and "sqlite:///" not in res.output, res.output
