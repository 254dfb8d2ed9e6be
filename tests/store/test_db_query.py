"""A database location with a URL query, on every surface that takes one (session 24).

``--db 'memlane.db?mode=ro'`` (a bare path with the query the README shows on a
``sqlite:///`` URL) created a file literally named ``memlane.db?mode=ro`` and wrote to it,
and ``sqlite:///m.db?cache=shared`` did the same with its own query. Each is now refused,
naming ``db`` and showing the URL that opens the file read-only, by ``parse_db_url``,
``Memory(...)``, a config's ``db``, ``$MEMLANE_DB`` and ``--db``; no file is made. A file
name holding a ``?`` that is no query (``what?.db``) is still a file name, and
``sqlite:///m.db?mode=ro`` still opens read-only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane import Memory
from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.serve.cli import cli
from memlane.store import parse_db_url

_stem = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-", min_size=1, max_size=12).map(
    lambda s: s + ".db")
_query = st.sampled_from(["mode=ro", "mode=rw", "mode=ro&cache=shared", "cache=shared",
                          "immutable=1", "x="])
SURFACES = ["parse", "Memory", "config db", "--db", "MEMLANE_DB", "config file", "mcp --db"]


def _refusal(surface: str, location: str, tmp_path: Path) -> str:
    """The error ``surface`` gives for ``location`` (failing the test if it gives none)."""
    if surface == "parse":
        with pytest.raises(ConfigError) as info:
            parse_db_url(location)
        return str(info.value)
    if surface == "Memory":
        with pytest.raises(ConfigError) as info:
            Memory(location)
        return str(info.value)
    if surface == "config db":
        with pytest.raises(ConfigError) as info:
            Memory(config=load_config(overrides={"db": location}, environ={}))
        return str(info.value)
    env = {"MEMLANE_CONFIG": str(tmp_path / "memlane.toml")}
    (tmp_path / "memlane.toml").write_text("")
    args = ["add", "hello", "--scope", "s"]
    if surface == "--db":
        args = ["--db", location, *args]
    elif surface == "mcp --db":
        args = ["mcp", "--db", location]
    elif surface == "MEMLANE_DB":
        env["MEMLANE_DB"] = location
    else:
        (tmp_path / "memlane.toml").write_text(f"[memory]\ndb = {location!r}\n".replace("'", '"'))
    r = CliRunner().invoke(cli, args, env=env)
    assert r.exit_code == 1, (r.exit_code, r.output)
    return r.output


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stem=_stem, query=_query, url=st.booleans(), surface=st.sampled_from(SURFACES))
def test_a_location_with_a_query_is_refused_on_every_surface(
        tmp_path: Path, stem: str, query: str, url: bool, surface: str) -> None:
    if url and query == "mode=ro":
        return  # the read-only URL itself, below
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        before = set(os.listdir(tmp_path))
        location = ("sqlite:///" if url else "") + f"{stem}?{query}"
        text = _refusal(surface, location, tmp_path)
        assert f"sqlite:///{stem}?mode=ro" in text, text
        # named as the user gave it: the parameter, the option, the variable, the file's key
        named = {"parse": "db: ", "Memory": "db: ", "config db": "db: ", "--db": "--db: ",
                 "mcp --db": "--db: ", "MEMLANE_DB": "MEMLANE_DB: ", "config file": "memory.db: "}[surface]
        assert named in text, text
        assert set(os.listdir(tmp_path)) <= before | {"memlane.toml"}  # no database made
    finally:
        os.chdir(cwd)


def test_the_read_only_url_and_a_question_mark_in_a_name_still_open(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(str(db)) as mem:
        mem.add_message("s", "user", "the cellar key is under the mat")
    parsed = parse_db_url(f"sqlite:///{db}?mode=ro")
    assert parsed.read_only and parsed.location == str(db)
    with Memory(f"sqlite:///{db}?mode=ro") as mem:
        assert mem.store.read_only  # type: ignore[attr-defined]
    odd = tmp_path / "what?.db"
    with Memory(str(odd)) as mem:
        mem.add_message("s", "user", "hello")
    assert odd.exists()
