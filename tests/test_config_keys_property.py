"""Every config key, each bad value: the error names the key as memlane.toml writes it.

Session 24: a value refused by its type named ``memory.indexing.max_attempts`` and one refused
by its range ``indexing.max_attempts``, so a user searching the file for the message's key
found one and not the other. Every key of every ``[memory.SECTION]`` (read from
``memlane.config`` itself, so a key added later is covered) is set, from the file and from
its environment variable, to a wrong type, NaN, inf, a negative, a huge and an empty value:
each refusal names ``memory.SECTION.KEY`` (never the short form), the variable when one set
it, and leaves nothing half-applied (no Config, an earlier one unchanged, no database made).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from memlane.config import _SECTIONS, Config, load_config
from memlane.errors import ConfigError

KEYS = [(section, f.name, typing.get_type_hints(cls)[f.name])
        for section, cls in _SECTIONS.items() for f in dataclasses.fields(cls)]

# TOML spellings of each bad value (``None``: no TOML spelling), and the variable's text
BAD: dict[str, tuple[str | None, str]] = {
    "wrong type": ('["x", 1]', "{not a value}"),
    "nan": ("nan", "nan"),
    "inf": ("inf", "inf"),
    "negative": ("-1", "-1"),
    "huge": ("1e308", "1e400"),
    "huge int": ("9223372036854775808", "9223372036854775808"),
    "empty": ('""', ""),
}
MUST_REFUSE = {"wrong type"}
NUMERIC_MUST_REFUSE = {"nan", "inf"}


def _refused(text: str, section: str, key: str, variable: str | None) -> None:
    full = f"memory.{section}.{key}"
    assert full in text, text
    # the short form (indexing.max_attempts) nowhere, for this key or any other
    short = re.compile(r"(?<![\w.])(%s)\.[a-z_]+" % "|".join(_SECTIONS))
    assert not short.search(text), text
    if variable is not None:
        assert variable in text, text


def _must_refuse(bad: str, tp: Any) -> bool:
    if bad in MUST_REFUSE:
        # an environment variable's text is a fine str and a one-item list; a file's list is
        # a fine list of strings only when all are strings (["x", 1] is not)
        return True
    return bad in NUMERIC_MUST_REFUSE and tp in (int, float)


@pytest.mark.parametrize(("section", "key", "tp"), KEYS, ids=[f"{s}.{k}" for s, k, _ in KEYS])
def test_every_key_refused_by_its_written_name(tmp_path: Path, section: str, key: str,
                                               tp: Any) -> None:
    variable = f"MEMLANE_{section.upper()}_{key.upper()}"
    file = tmp_path / "memlane.toml"
    for bad, (toml_value, env_value) in BAD.items():
        for surface in ("file", "environment"):
            if surface == "file":
                file.write_text(f"[memory.{section}]\n{key} = {toml_value}\n")
                environ: dict[str, str] = {}
            else:
                file.write_text("")
                environ = {variable: env_value}
            must = _must_refuse(bad, tp)
            if surface == "environment" and (tp is str or typing.get_origin(tp) is tuple):
                must = False  # "{not a value}" is a fine text, and a list of one item
            try:
                config = load_config(file, environ=environ)
            except ConfigError as e:
                _refused(str(e), section, key, variable if surface == "environment" else None)
                continue
            assert not must, (section, key, bad, surface, getattr(config, section))


@pytest.mark.parametrize(("section", "key", "tp"), KEYS, ids=[f"{s}.{k}" for s, k, _ in KEYS])
def test_replace_refuses_by_the_written_name_and_changes_nothing(section: str, key: str,
                                                                 tp: Any) -> None:
    """``Config.replace`` (what a library caller uses) names the key the same way, and the
    config it was called on is the one it was."""
    config = Config()
    before = dataclasses.asdict(config)
    with pytest.raises(ConfigError) as info:
        config.replace(**{section: {key: [object()]}})
    _refused(str(info.value), section, key, None)
    assert dataclasses.asdict(config) == before


@pytest.mark.parametrize(("line", "key"), [
    ("[memory.indexing]\nmax_attempts = 0", "memory.indexing.max_attempts"),
    ("[memory.search]\nrrf_k = 0", "memory.search.rrf_k"),
    ("[memory.serve]\nport = 70000", "memory.serve.port"),
])
def test_a_refused_file_makes_no_database(tmp_path: Path, line: str, key: str) -> None:
    """A range error (the check in the section itself) names the key as written, through
    the CLI too, and the database the command would have opened is never made."""
    import os
    import subprocess
    import sys

    (tmp_path / "memlane.toml").write_text(f'[memory]\ndb = "m.db"\n{line}\n')
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    env = {k: v for k, v in env.items() if not k.startswith("MEMLANE_")}
    r = subprocess.run([sys.executable, "-m", "memlane", "stats"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and key in r.stderr, r.stderr
    assert not (tmp_path / "m.db").exists()


# -- session 25: a misspelt key ------------------------------------------------------------

def _misspellings(key: str) -> list[str]:
    """A typing slip: a letter doubled, one dropped, two neighbours swapped."""
    i = len(key) // 2
    out = [key[:i] + key[i] + key[i:], key[:i] + key[i + 1:]]
    if key[i - 1] != key[i]:
        out.append(key[:i - 1] + key[i] + key[i - 1] + key[i + 1:])
    return [m for m in out if m != key and m not in {k for _, k, _ in KEYS}]


@pytest.mark.parametrize(("section", "key", "tp"), KEYS, ids=[f"{s}.{k}" for s, k, _ in KEYS])
def test_a_misspelt_key_is_named_in_full_with_the_key_it_is_near(tmp_path: Path, section: str,
                                                                key: str, tp: Any) -> None:
    """A typo in a table of 70 keys was ``memory.retrieval: unknown key(s) ['fusion_vectr'];
    known: [...]``: the table, not the key, and every key of the table to read through."""
    f, empty = tmp_path / "memlane.toml", tmp_path / "empty.toml"
    empty.write_text("")
    for typo in _misspellings(key):
        f.write_text(f"[memory.{section}]\n{typo} = 1\n")
        for where, run in [
            (f"memory.{section}.{typo}", lambda: load_config(f, environ={})),
            (f"MEMLANE_{section.upper()}_{typo.upper()}",
             lambda: load_config(empty, environ={f"MEMLANE_{section.upper()}_{typo.upper()}": "1"})),
            (f"memory.{section}.{typo}", lambda: Config().replace(**{section: {typo: 1}})),
        ]:
            with pytest.raises(ConfigError) as e:
                run()
            said = str(e.value)
            assert said.startswith(f"{where}: "), said
            suggested = re.search(r"did you mean (\w+)\?", said)
            assert suggested and suggested.group(1) == key, (typo, said)
