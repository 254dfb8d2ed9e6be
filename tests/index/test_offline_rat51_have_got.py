"""Session 51 (rat51), rationale (docs/summary-eval.md, "Session 51: rationale written wrong
(rat51)"): "I've got / We've got …" tells what the speaker has to hand, as "There's …" does; the
shipped sentence model read it as a reason and the summary wrote it (``_TO_HAND``, with "There's …"
since session 52, screened in ``_Reader.learned``'s rationale lines)."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_what_the_user_has_to_hand_is_no_reason(model):
    summary, _ = offline_summary(
        "user: I want to start learning the cello this autumn.",
        "assistant: A rental is a good way to start.",
        "user: I've got my aunt's old bow for it.",
        "user: I'll rent a three-quarter cello from the music shop.",
        "assistant: Good plan.",
        model=model)
    assert not any("aunt's old bow" in r for r in summary.rationale), summary.rationale
