"""Session 53 (ref53): a key of capitals and two or more groups of digits parted by blanks
("VOD 583 219") is one reference; an amount after its currency ("EUR 12 500") and a name with one
group ("NHS 111") are none (``_SPACED_KEY`` in ``memlane.index.offline``)."""

from memlane.testing import offline_summary


def test_a_key_in_blank_parted_groups_is_one_reference():
    summary, _ = offline_summary(
        "user: I asked the old network for my transfer code to move the number.",
        "assistant: You should get it by text within a minute.",
        "user: Done. it's TRX 418 220 5. The new SIM arrives Friday.")
    assert "TRX 418 220 5" in summary.references, summary.references


def test_an_amount_after_its_currency_and_a_one_group_name_are_no_key():
    summary, _ = offline_summary(
        "Nadia: The quote for the roof came in at EUR 12 500, which is over budget.",
        "Ivo: If anyone gets hurt on site, call NHS 111 first.",
        "Nadia: Agreed, we go with the cheaper roofer.")
    assert not any("12 500" in r for r in summary.references), summary.references
    assert "NHS 111" not in summary.references, summary.references
