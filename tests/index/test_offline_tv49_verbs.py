"""Session 49 (tv49): a task's verb in "-oes" has its base form ("does" -> "do", "goes" -> "go",
"echoes" -> "echo"; "shoes" -> "shoe"), so "who does X?" — "Me" takes the task on like any other
verb (``_task_verb``, ``_Reader.me_for_task``)."""

import pytest

from memlane.index.cues import _task_verb
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize(("said", "base"), [
    ("does", "do"), ("Does", "do"), ("goes", "go"), ("echoes", "echo"), ("vetoes", "veto"),
    ("undoes", "undo"), ("torpedoes", "torpedo"),
    ("shoes", "shoe"), ("toes", "toe"), ("canoes", "canoe"), ("tiptoes", "tiptoe"),
    ("fixes", "fix"), ("carries", "carry"), ("sets", "set"), ("bringing", "bring"), ("do", "do"),
])
def test_task_verb_base_form(said, base):
    assert _task_verb(said) == base


@pytest.mark.parametrize("model", WAYS)
def test_me_answering_who_does_a_task_is_the_answerers_step(model):
    summary, _ = offline_summary(
        "Ffion: The netball club's kit bag came back from the away game with two bibs missing.",
        "Gareth: And the first aid box is nearly empty, the plasters ran out at half time.",
        "Ffion: Who does the kit wash after the league match on Saturday?",
        "Gareth: Me, I have the big machine.",
        model=model)
    assert "Gareth: Do the kit wash after the league match on Saturday." in summary.action_items, summary.action_items
