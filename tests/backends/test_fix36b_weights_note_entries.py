"""The weights-hash note keeps several installs' entries (session 36, fix36b): it held one,
so two installs with different weights sharing one cache directory overwrote each other's
note and every process of either hashed its weights again. Now it keeps the newest
``NOTE_ENTRIES``, written atomically, an older note (one entry) read, a damaged one no
error. Hashes counted by wrapping ``hashlib.file_digest`` (the standard library's)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.backends.embed import static as static_mod

INSTALLS = static_mod.NOTE_ENTRIES + 3


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    hashed: list[str] = []
    real = hashlib.file_digest

    def file_digest(fh: Any, name: str) -> Any:
        hashed.append(fh.name)
        return real(fh, name)

    monkeypatch.setattr(hashlib, "file_digest", file_digest)
    return hashed


def _installs(root: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        path = root / f"venv{i}" / "model.safetensors"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"weights of install {i}".encode())
        out.append(path)
    return out


def _process(weights: Path, where: Path) -> str:
    static_mod._HASHES.clear()  # as a new process starts
    return static_mod._weights_hash(weights, where)


def test_two_installs_sharing_a_cache_hash_once_each(tmp_path: Path, counted: list[str]) -> None:
    a, b = _installs(tmp_path, 2)
    where = tmp_path / "cache"
    for _ in range(3):
        assert _process(a, where) == hashlib.sha256(a.read_bytes()).hexdigest()
        assert _process(b, where) == hashlib.sha256(b.read_bytes()).hexdigest()
    assert counted == [str(a), str(b)]
    assert [p.name for p in where.iterdir()] == [static_mod.WEIGHTS_HASH_FILE]  # no temp left


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.integers(0, INSTALLS - 1), max_size=40))
def test_each_install_hashes_only_when_its_entry_was_pushed_out(
        tmp_path_factory: pytest.TempPathFactory, counted: list[str], runs: list[int]) -> None:
    """A model: the note's installs, newest written first, at most ``NOTE_ENTRIES``."""
    root = tmp_path_factory.mktemp("installs")
    installs, where = _installs(root, INSTALLS), root / "cache"
    counted.clear()
    held: list[int] = []
    expected = []
    for i in runs:
        if i not in held:
            expected.append(str(installs[i]))
            held = [i, *held][:static_mod.NOTE_ENTRIES]
        assert _process(installs[i], where) == hashlib.sha256(installs[i].read_bytes()).hexdigest()
    assert counted == expected
    if runs:
        note = json.loads((where / static_mod.WEIGHTS_HASH_FILE).read_text())
        assert len(note["others"]) == len(held) - 1


def test_an_older_note_of_one_entry_is_read_and_kept(tmp_path: Path, counted: list[str]) -> None:
    a, b = _installs(tmp_path, 2)
    where = tmp_path / "cache"
    _process(a, where)
    note = where / static_mod.WEIGHTS_HASH_FILE
    held = json.loads(note.read_text())
    note.write_text(json.dumps({k: v for k, v in held.items() if k != "others"}))  # session 35's
    _process(a, where)
    _process(b, where)
    _process(a, where)
    assert counted == [str(a), str(b)]
    assert json.loads(note.read_text())["path"] == str(b)  # what an older memlane reads: newest


@pytest.mark.parametrize("others", ['"x"', "[1, null, []]", '[{"sha256": "../"}]', "{}",
                                    '[{"path": 5, "sha256": "' + "a" * 64 + '"}]'])
def test_a_damaged_list_of_entries_is_no_error(tmp_path: Path, others: str) -> None:
    (a,) = _installs(tmp_path, 1)
    where = tmp_path / "cache"
    where.mkdir()
    note = where / static_mod.WEIGHTS_HASH_FILE
    note.write_text('{"sha256": "' + "b" * 64 + '", "others": ' + others + "}")
    assert _process(a, where) == hashlib.sha256(a.read_bytes()).hexdigest()
    assert _process(a, where) == hashlib.sha256(a.read_bytes()).hexdigest()
    assert json.loads(note.read_text())["path"] == str(a)
