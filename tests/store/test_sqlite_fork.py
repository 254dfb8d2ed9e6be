"""A ``Memory`` on SQLite used in a child forked after it opened the file (multiprocessing
with the fork start method, a prefork server that loads the app first). The child used
the parent's connection; when the parent then closed its own, SQLite (which keeps one
record of a file's locks per process, copied into the child) saw no other reader,
checkpointed and deleted the WAL the child was still writing to: 135 of 400 messages the
child had stored were not in the file."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _memory(db: Path) -> Memory:
    return Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=32))


def test_a_forked_child_keeps_every_message(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mem = _memory(db)
    mem.add_message("parent", "user", "before the fork", at=1.7e9)
    read, write = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: store 200 messages, telling the parent when it has started
        code = 1
        try:
            os.close(read)
            os.close(go_r)
            for i in range(200):
                mem.add_message("child", "user", f"child {i}", at=1.7e9 + 10 + i)
                if i == 20:
                    os.write(go_w, b"x")
            os.write(write, b"200")
            code = 0
        except BaseException as e:  # noqa: BLE001 - reported through the pipe
            os.write(write, repr(e).encode()[:500])
        finally:
            os._exit(code)
    os.close(write)
    os.close(go_w)
    assert os.read(go_r, 1) == b"x"  # the child is writing: the parent now closes
    mem.close()
    told = os.read(read, 1000).decode()
    _, status = os.waitpid(pid, 0)
    assert told == "200" and status == 0, told
    with _memory(db) as again:
        texts = [m.text for s in again.sessions(scope="child") for m in again.messages(s.id)]
    assert len(texts) == 200
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()


def test_the_parent_keeps_working_after_a_fork(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with _memory(db) as mem:
        mem.add_message("p", "user", "one", at=1.7e9)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                mem.add_message("c", "user", "from the child", at=1.7e9 + 5)
                mem.close()  # closes the child's own connection, not the parent's
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert status == 0
        mem.add_message("p", "user", "two", at=1.7e9 + 10)
        assert mem.stats()["messages"] == 3
