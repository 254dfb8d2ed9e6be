"""MCP ``forget`` of a turn's item (session 23): the message it came from is erased with it,
and the answer says so; the agent's user asked to forget what they said."""

from __future__ import annotations

from mcp import Client

from memlane.testing import memory
from tests.serve.test_mcp import call, server, talk


def test_forget_of_a_turn_erases_its_message_and_says_so(tmp_path, db):
    with memory(db) as mem:
        sid = mem.sessions("alice-assistant")[0].id
        turn = [i for i in mem.store.session_items(sid, kind="turn") if i.role == "user"][0]
        before = [m.id for m in mem.messages(sid)]
    answers: list[str] = []

    async def body(c: Client) -> None:
        answers.append(await call(c, "forget", {"item_id": turn.id}))

    talk(server(tmp_path, db), body)
    assert answers[0].startswith(f"forgot item {turn.id} (turn: ")
    assert f"and message {turn.message_id} it came from" in answers[0]
    with memory(db) as mem:
        kept = [m.id for m in mem.messages(sid)]
        assert kept == [m for m in before if m != turn.message_id]
        assert turn.text not in [m.text for m in mem.messages(sid)]
