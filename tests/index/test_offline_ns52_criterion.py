"""Session 52 (ns52): a web accessibility success criterion by its three-part number is one
reference with the guidelines' name ("WCAG 2.1.4"), not the bare number; the version alone
("WCAG 2.1 AA") is none (``_CRITERION`` in ``memlane.index.offline``)."""

from memlane.testing import offline_summary


def test_a_success_criterion_keeps_its_name():
    summary, _ = offline_summary(
        "Hana: I'd want a setting to switch the shortcuts off; WCAG 2.2.1 asks for exactly that.",
        "Ravi: And the contract wants WCAG 2.1 AA overall.", "Hana: Agreed, the setting goes in.")
    assert "WCAG 2.2.1" in summary.references, summary.references
    assert "2.2.1" not in summary.references, summary.references
    assert not any(r.startswith("WCAG 2.1") for r in summary.references), summary.references
