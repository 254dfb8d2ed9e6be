"""A benchmark run's results as they are finished: ``progress.jsonl`` in ``--out``.

The first line says what the run is (the benchmark, the data file's SHA-256, the options,
the configuration as memlane resolved it, memlane's version); each line after it is one
finished unit (a LongMemEval question, a LoCoMo conversation: its rankings, latencies,
counters and answers), appended, flushed and synced as soon as the unit is done. A run
interrupted at any point (Ctrl-C, a kill, a power cut) keeps every finished unit; ``--resume``
reads them back, checks the run is the same one (refusing, naming what differs), cuts a
last line the interruption left torn (its unit is run again) and goes on. The file is
locked while a process appends to it, so two runs never write one ``--out``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, BinaryIO

import click

__all__ = ["JOURNAL", "Journal", "config_state", "file_sha256", "run_header"]

JOURNAL = "progress.jsonl"
FORMAT = "memlane-bench-progress/1"


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file's bytes (as stored: a compressed file's own bytes)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _flat(obj: Any, prefix: str, out: dict[str, Any]) -> None:
    if is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            _flat(getattr(obj, f.name), f"{prefix}{f.name}.", out)
    elif isinstance(obj, Mapping):
        for k in sorted(obj):
            _flat(obj[k], f"{prefix}{k}.", out)
    elif prefix.endswith("base_url.") and isinstance(obj, str):
        from memlane.store.urls import public_url

        out[prefix[:-1]] = public_url(obj)  # a password in the URL is not written down
    else:
        out[prefix[:-1]] = json.loads(json.dumps(obj, default=str))


SKIPPED_SECTIONS = ("db", "serve", "mcp", "live")
"""Where the memory lives and how the service serves it: no part of a ranking (``--db``'s
kind is an option of the run; the scratch URL may change and holds a password)."""


def config_state(config: Any) -> dict[str, Any]:
    """The configuration as memlane resolved it (defaults, ``memlane.toml``, ``--set``),
    one ``section.key`` a value, without the sections that do not shape a ranking."""
    out: dict[str, Any] = {}
    for f in fields(config):
        if f.name not in SKIPPED_SECTIONS:
            _flat(getattr(config, f.name), f"{f.name}.", out)
    return out


def run_header(benchmark: str, data: Path, options: Mapping[str, Any],
               config: Any) -> dict[str, Any]:
    """What a run is: the first line of its ``progress.jsonl``."""
    from memlane import __version__

    return {"format": FORMAT, "benchmark": benchmark,
            "data": {"path": str(data), "sha256": file_sha256(data)},
            "options": json.loads(json.dumps(dict(options), default=str)),
            "config": config_state(config), "memlane": __version__}


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if value is not None else "not given"


def differences(was: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What differs between the run in ``--out`` (``was``) and this command (``now``)."""
    out: list[str] = []
    if was.get("benchmark") != now["benchmark"]:
        return [f"it is a {was.get('benchmark')} run, not {now['benchmark']}: run memlane "
                f"bench {was.get('benchmark')} --resume"]
    wd, nd = was.get("data") or {}, now["data"]
    if wd.get("sha256") != nd["sha256"]:
        out.append(f"data: {wd.get('path')} (sha256 {str(wd.get('sha256'))[:12]}) in the run, "
                   f"{nd['path']} (sha256 {nd['sha256'][:12]}) now")
    for kind, label in (("options", ""), ("config", "config ")):
        a, b = was.get(kind) or {}, now[kind]
        for key in sorted(set(a) | set(b), key=lambda k: (k not in b, k)):
            if a.get(key) != b.get(key):
                shown = (f"{label}{key}: {_show(a.get(key)) if key in a else 'no such key'} "
                         f"in the run, {_show(b.get(key)) if key in b else 'no such key'} now")
                out.append(shown)
    if was.get("memlane") != now["memlane"]:
        out.append(f"memlane: {was.get('memlane')} in the run, {now['memlane']} now")
    return out


class Journal:
    """``progress.jsonl`` of one run, open for appending (and locked) until ``close``.

    ``done``: the units finished by earlier processes of the run (unit id -> entry);
    ``torn``: bytes of a last line cut short that were dropped (its unit is run again)."""

    def __init__(self, fh: BinaryIO, path: Path, key: str,
                 done: dict[str, dict[str, Any]], torn: int, created: bool) -> None:
        self._fh, self.path, self.key, self.done, self.torn = fh, path, key, done, torn
        self.created = created
        self.data_sha256: str | None = None
        """The data file's SHA-256 (in the report, for ``bench compare``)."""
        self.kept = len(done)
        """Units in the file: finished before, and by this process."""

    @classmethod
    def open(cls, out: Path, header: dict[str, Any], key: str, resume: bool) -> Journal:
        """Start the journal in ``out`` (new or empty), or with ``resume`` read the one
        there, refusing (``click.BadParameter`` on ``--resume``) a run of other data,
        options or configuration, a damaged line, or a run another process is writing."""
        path = out / JOURNAL
        created = not (resume and path.is_file())
        if not created:
            fh = open(path, "r+b")  # noqa: SIM115 - held open (and locked) for the run
        else:
            if resume and out.is_dir() and any(out.iterdir()):
                has = ", ".join(sorted(p.name for p in out.iterdir())[:5])
                raise click.BadParameter(f"{out} holds no {JOURNAL} (it has {has}): not a run "
                                         "that can be resumed", param_hint="--resume")
            out.mkdir(parents=True, exist_ok=True)
            fh = open(path, "x+b")  # noqa: SIM115
        try:
            _lock(fh, out)
            done, torn = cls._read(fh, path, header, key)
            fh.seek(0, os.SEEK_END)
            if fh.tell() == 0:
                _append(fh, header)
        except BaseException:
            fh.close()
            raise
        journal = cls(fh, path, key, done, torn, created)
        journal.data_sha256 = header["data"]["sha256"]
        return journal

    @staticmethod
    def _read(fh: BinaryIO, path: Path, header: dict[str, Any],
              key: str) -> tuple[dict[str, dict[str, Any]], int]:
        fh.seek(0)
        raw = fh.read()
        lines = raw.split(b"\n")
        tail = lines.pop()  # after the last newline: empty, or a line the interruption tore
        torn = len(tail)
        done: dict[str, dict[str, Any]] = {}
        for n, line in enumerate(lines, start=1):
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                obj = None
            if n == 1:
                if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                    raise click.BadParameter(f"{path}: line 1 is not a memlane bench run's "
                                             "header", param_hint="--resume")
                diff = differences(obj, header)
                if diff:
                    raise click.BadParameter(
                        f"{path.parent} holds a run of other data, options or configuration "
                        f"({'; '.join(diff)}): resume it with the same command, or give a new "
                        "--out", param_hint="--resume")
                continue
            unit = obj.get(key) if isinstance(obj, dict) else None
            if not isinstance(unit, str) or unit in done:
                what = (f"names {key} {unit!r} again" if isinstance(unit, str)
                        else "is damaged (not a finished unit)")
                raise click.BadParameter(f"{path}: line {n} {what}: the run cannot be resumed; "
                                         "run it again in a new --out", param_hint="--resume")
            done[unit] = obj
        if torn:
            fh.truncate(len(raw) - torn)
            fh.flush()
            os.fsync(fh.fileno())
        return done, torn

    def append(self, entry: dict[str, Any]) -> None:
        """One finished unit, on disk before the next one starts."""
        _append(self._fh, entry)
        self.kept += 1

    def close(self, discard_empty: bool = False) -> None:
        """Close (and unlock) the file; ``discard_empty``: a run that failed before it
        finished anything leaves no ``--out`` it made (nothing to go on with)."""
        self._fh.close()
        if discard_empty and self.created and not self.kept:
            self.path.unlink(missing_ok=True)
            try:
                self.path.parent.rmdir()
            except OSError:
                pass  # it held files of its own


def _lock(fh: BinaryIO, out: Path) -> None:
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise click.BadParameter(f"{out} is being written by another memlane bench run "
                                 f"({JOURNAL} is locked)", param_hint="--out") from None


def _append(fh: BinaryIO, obj: dict[str, Any]) -> None:
    fh.write(json.dumps(obj).encode("ascii") + b"\n")
    fh.flush()
    os.fsync(fh.fileno())
