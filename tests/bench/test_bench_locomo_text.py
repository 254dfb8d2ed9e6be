"""LoCoMo turns are sent as a chat client would send them: text plus a shared photo's
description."""

from __future__ import annotations

from datetime import datetime

from memlane.bench.datasets import DialogTurn, LoCoMoConversation, LoCoMoSession
from memlane.bench.locomo import _inputs, turn_text


def test_a_shared_photo_is_sent_with_its_description() -> None:
    plain = DialogTurn("D1:1", "Mel", "Take a look at this.", 1)
    photo = DialogTurn("D1:2", "Mel", "Take a look at this.", 1, "a photo of a pottery bowl")
    blank = DialogTurn("D1:3", "Mel", "Nice!", 1, "  ")
    assert turn_text(plain) == "Take a look at this."
    assert turn_text(photo) == "Take a look at this. [shares a photo: a photo of a pottery bowl]"
    assert turn_text(blank) == "Nice!"


def test_the_runner_ingests_the_described_text() -> None:
    session = LoCoMoSession(1, datetime(2023, 5, 8), "8 May 2023", (
        DialogTurn("D1:1", "Mel", "Take a look at this.", 1, "a photo of a pottery bowl"),
        DialogTurn("D1:2", "Caro", "Lovely!", 1)))
    conv = LoCoMoConversation("c", "Mel", "Caro", (session,), ())
    turns = _inputs(conv, "user")[0].turns
    assert [t.text for t in turns] == [
        "Take a look at this. [shares a photo: a photo of a pottery bowl]", "Lovely!"]
    assert [t.speaker for t in turns] == ["Mel", "Caro"]
