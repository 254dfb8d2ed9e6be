"""A public test kit: test your code against memlane without mocks.

- ``HashingEmbedder``: a deterministic embedder with no model files (fast, stable).
- ``example_files()``: the example conversations shipped with memlane.
- ``memory(path)``: a real ``Memory`` on a SQLite file with the hashing embedder.
- ``IdReads()``: a store ``tracer`` (``Memory(tracer=...)``, SQLite) counting the reads of
  stored messages by their ids, per id: a test of how often a path reads one row.
- ``turn_messages(turns)`` / ``offline_summary(*turns)``: one session's messages from
  ``"Speaker: text"`` lines, and what the offline backend (the default) summarizes from them.
- ``memlane.testing.openai_server.OpenAICompatServer``: a real loopback HTTP server that
  speaks the OpenAI-compatible embeddings protocol, with scriptable failures.
- ``memlane.testing.llm_server.ChatServer``: the same server speaking chat completions
  with scripted replies, failures and delays (for LLM-backed intelligence and HyDE).
- ``memlane.testing.http.serving(app)``: a real uvicorn serving an app (memlane's service
  from ``memlane.serve.http.create_app``) on a free loopback port, stopped on exit.
- ``memlane.testing.postgres.postgres_server()``: a throwaway PostgreSQL + pgvector server
  on a free loopback port (needs the ``postgres`` extra).
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlane.backends.embed.hashing import HashingEmbedder

__all__ = ["TURNS_ALONE", "HashingEmbedder", "IdReads", "add_sessions", "checked_summary", "cli_commands", "example_files",
           "memory", "offline_names", "offline_summary", "turn_messages"]

if TYPE_CHECKING:
    import click

    from memlane.index.schema import Extraction, SessionSummary
    from memlane.memory import Memory
    from memlane.types import Message


def cli_commands(group: click.Group | None = None, *, groups: bool = False,
                 prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command of ``group`` (the ``memlane`` CLI by default) as ``(path, command)``,
    ``("sessions", "forget")``, the lazily loaded ones mounted; ``groups``: each group too,
    before its commands. What the tests that walk every command share."""
    import click

    if group is None:
        from memlane.serve.cli import cli

        group = cli
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # mounts the lazily loaded ones too
        cmd = group.get_command(ctx, name)
        if cmd is None:
            continue
        path = (*prefix, name)
        if isinstance(cmd, click.Group):
            if groups:
                yield path, cmd
            yield from cli_commands(cmd, groups=groups, prefix=path)
        else:
            yield path, cmd


class IdReads:
    """A store ``tracer`` (``Memory(config=..., tracer=IdReads())``; SQLite's traces carry
    their values) counting the statements that read a stored message by its id, per id:
    ``message_by_ext_id`` (``ext_id = 'x'``) and ``messages_by_ext_ids`` (``ext_id IN
    ('x', 'y')``, each id once). ``first_stored``, which reads which ids are held but no
    message, is not counted. ``reads`` is a ``Counter``; ``clear()`` empties it."""

    _READ = re.compile(r"^SELECT id, .* FROM messages WHERE scope = '(?:[^']|'')*' AND ext_id"
                       r" (?:= '((?:[^']|'')*)'|IN \((.*)\))$", re.S)
    _ID = re.compile(r"'((?:[^']|'')*)'")

    def __init__(self) -> None:
        self.reads: Counter[str] = Counter()

    def __call__(self, kind: str, detail: str, params: Any = None) -> None:
        found = self._READ.match(str(detail).strip())
        if found is None:
            return
        ids = [found.group(1)] if found.group(1) is not None else self._ID.findall(found.group(2))
        self.reads.update(i.replace("''", "'") for i in ids)

    def clear(self) -> None:
        self.reads.clear()


def example_files() -> list[Path]:
    """Paths of the example JSONL conversations shipped inside the package."""
    folder = resources.files("memlane") / "examples"
    return sorted(Path(str(f)) for f in folder.iterdir() if f.name.endswith(".jsonl"))


TURNS_ALONE: dict[str, Any] = {"small_session_facts": False}
"""``memory(path, indexing=TURNS_ALONE)``: sessions smaller than ``ingest.min_session_messages``
keep their turns as their only items (no facts, entities or observations read from them), for
a test of a rule over turns built from such sessions."""


def memory(path: str | Path, **config_overrides: Any) -> Any:
    """A ``Memory`` on ``path`` with the hashing embedder and default config (plus overrides)."""
    from memlane.config import load_config
    from memlane.memory import Memory

    config = load_config(environ={}, overrides={"db": str(path), **config_overrides})
    return Memory(config=config, embedder=HashingEmbedder(dim=256, char_trigrams=True))


def add_sessions(mem: Memory, sessions: Iterable[tuple[float, Sequence[tuple[str, str]]]], *,
                 now: datetime, scope: str = "chat", index: bool = True,
                 speakers: bool = False) -> Any:
    """Add each ``(days before now, [(role, text), ...])`` session to ``scope``, a minute a
    turn, close it, and (unless ``index=False``) index as of ``now``; returns ``mem``. With
    ``speakers``, each pair is ``(speaker, text)``: a conversation between named people,
    every turn a user turn with its speaker."""
    for days, turns in sessions:
        at = now - timedelta(days=days)
        for i, (who, text) in enumerate(turns):
            role, speaker = ("user", who) if speakers else (who, None)
            mem.add_message(scope, role, text, at=at + timedelta(minutes=i), speaker=speaker)
        mem.close_session(scope)
    if index:
        mem.index(now=now)
    return mem


def turn_messages(turns: Iterable[str], *, scope: str = "s") -> list[Message]:
    """Stored messages of one session from ``"Speaker: text"`` lines, as the labelled
    summaries' bench stores its conversations (``messages_of``: ``assistant`` is the
    assistant, ``user`` the user, any other name a user with that speaker name; a minute
    apart)."""
    from memlane.bench.summaries.run import Conversation, messages_of

    pairs = tuple((who, text) for who, _, text in (t.partition(": ") for t in turns))
    return messages_of(Conversation(scope, "test", pairs, {}))


def offline_summary(*turns: str, model: Any = "shipped") -> tuple[SessionSummary, Extraction]:
    """The offline backend's summary and extraction of one session of ``"Speaker: text"``
    lines (``turn_messages``): ``user`` / ``assistant`` or a participant's name. ``model``:
    the sentence model joining the patterns (``"shipped"``, the default's; None: the
    patterns alone, as ``summary.sentence_model = false``)."""
    from memlane.index.offline import OfflineIntelligence

    return OfflineIntelligence(model).summarize("s", turn_messages(turns))


def offline_names(*turns: str, model: Any = "shipped") -> set[str]:
    """The names ``offline_summary`` extracts as the summaries' bench scores entities: every
    entity but dates and references (their own field)."""
    from memlane.bench.summaries.run import _NOT_ENTITIES

    _, extraction = offline_summary(*turns, model=model)
    return {e.name for e in extraction.entities if e.type not in _NOT_ENTITIES}


def checked_summary(model: Any, *turns: str) -> SessionSummary:
    """``offline_summary``'s summary with ``model``, having checked that none of its list
    fields holds small talk ("Agreed.", "Thanks!": ``AssertionError`` naming the field)."""
    from memlane.bench.summaries.run import LISTS
    from memlane.bench.summaries.score import is_small_talk, strip_owner

    summary, _ = offline_summary(*turns, model=model)
    for field in LISTS:
        for item in getattr(summary, field):
            assert not is_small_talk(strip_owner(item)), (field, item)
    return summary
