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


def _asked_on_a_terminal(args: list[str], answer: bytes, env: dict[str, str]) -> tuple[str, int]:
    """Run ``memlane ARGS`` with a pseudo-terminal as its standard input and output, answer
    its question, and give back what it printed and its exit code (bounded in time)."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "memlane", *args], stdin=child, stdout=child,
                            stderr=child, env=env, close_fds=True)
    os.close(child)
    out = b""
    deadline = time.monotonic() + 60
    answered = False
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
                if not answered and b"[y/N]" in out:
                    os.write(main, answer + b"\n")
                    answered = True
            elif proc.poll() is not None:
                break
        return out.decode(errors="replace"), proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


def test_the_erase_question_counts_the_sessions_messages_in_words(tmp_path):
    """``memlane sessions forget 1`` on a terminal asked "Erase session 1 of scope 's'
    (1 messages) and everything derived from it?" (docs/erasure.md: the CLI asks for
    confirmation on a terminal), and ``sessions show 1`` said "· 1 messages ·". One message
    is "1 message"; "n" erases nothing, exit 1."""
    import os

    import memlane

    db = str(tmp_path / "m.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "add", "--scope", "s", "hello"]).exit_code == 0
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(memlane.__file__)),
           "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    out, code = _asked_on_a_terminal(["--db", db, "sessions", "forget", "1"], b"n", env)
    assert "Erase session 1 of scope 's' (1 message) and everything derived from it?" in out, out
    assert code == 1 and "nothing erased" in out, out
    assert " · 1 message · " in runner.invoke(cli, ["--db", db, "sessions", "show", "1"]).output
    assert runner.invoke(cli, ["--db", db, "add", "--scope", "s", "again"]).exit_code == 0
    assert " · 2 messages · " in runner.invoke(cli, ["--db", db, "sessions", "show", "1"]).output
    out, code = _asked_on_a_terminal(["--db", db, "sessions", "forget", "1"], b"y", env)
    assert "(2 messages)" in out and code == 0 and "erased session 1" in out, out
