"""A database path the system cannot look up (a loop of symbolic links, a name too long,
a file where a folder should be, ``~`` of a user that does not exist) is refused naming
``db``, by ``Memory(...)`` and the CLI alike (session 29): pathlib's ``RuntimeError`` and
``OSError`` escaped both, the CLI's as a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ConfigError, StoreError
from memlane.testing import memory

PARTS = ("loop", "file", "long", "missing", "here")
"""A link to itself, a plain file as a folder, a name over 255 bytes, a folder not there,
a real folder."""


def _place(root: Path) -> dict[str, str]:
    (root / "data").mkdir(exist_ok=True)
    if not (root / "loop").is_symlink():
        (root / "loop").symlink_to(root / "loop")
    (root / "file").write_text("not a folder")
    return {"loop": "loop", "file": "file", "long": "n" * 300, "missing": "missing",
            "here": "data"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(PARTS), min_size=1, max_size=3),
       name=st.sampled_from(["m.db", "n" * 300 + ".db", "loop"]),
       home=st.sampled_from(["", "~", "~memlane-no-such-user/", "sqlite:///"]))
def test_any_path_the_system_refuses_is_an_error_naming_db(tmp_path: Path, parts: list[str],
                                                           name: str, home: str) -> None:
    names = _place(tmp_path)
    rest = "/".join([*(names[p] for p in parts), name])
    db = (f"{home}{tmp_path}/{rest}" if home in ("", "sqlite:///") else
          f"{home}/{os.path.relpath(tmp_path / rest, Path.home())}" if home == "~" else
          f"{home}{rest}")
    try:
        mem = memory(db)
    except (StoreError, ConfigError) as e:
        assert str(e).startswith("db: "), e
        return
    mem.close()  # a path that names a database (a file in the real folder): opened
    assert parts == ["here"] and len(name) < 255


@pytest.mark.parametrize("part", ["loop/m.db", "file/m.db", "n" * 300 + ".db", "~memlane-no-such-user/m.db"])
@pytest.mark.parametrize("command", [["add", "--scope", "s", "hi"], ["stats"]])
def test_the_cli_says_it_in_one_line(tmp_path: Path, part: str, command: list[str]) -> None:
    _place(tmp_path)
    db = part if part.startswith("~") else str(tmp_path / part)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    env.pop("MEMLANE_DB", None)
    got = subprocess.run([sys.executable, "-m", "memlane", "--db", db, *command],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert got.returncode == 1
    assert "Traceback" not in got.stderr, got.stderr[-1500:]
    assert got.stderr.startswith("Error: --db: "), got.stderr


@pytest.mark.parametrize("part", ["loop/m.db", "file/m.db", "n" * 300 + ".db", "here/", "gone/m.db"])
def test_copy_from_a_path_that_names_no_database_says_it_in_one_line(tmp_path: Path,
                                                                      part: str) -> None:
    """``memlane copy --from`` checked its path itself (``is_dir``): a name too long was an
    ``OSError`` traceback (session 30). It is refused naming ``--from``, as ``--db`` is."""
    names = _place(tmp_path)
    source = str(tmp_path / part.replace("here/", names["here"]).replace("gone/", "missing/"))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    env.pop("MEMLANE_DB", None)
    got = subprocess.run([sys.executable, "-m", "memlane", "copy", "--from", source,
                          "--to", str(tmp_path / "out.db")],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert got.returncode == 1, got.stderr[-1500:]
    assert "Traceback" not in got.stderr, got.stderr[-1500:]
    assert got.stderr.startswith("Error: --from: "), got.stderr
    assert not (tmp_path / "out.db").exists()
