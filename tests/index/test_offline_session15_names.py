"""Session 15's entity rules on a conversation written for this test: an acronym's plural and
a name in code are not entities; the products and places beside them still are."""

from datetime import UTC, datetime, timedelta

from memlane.index.offline import OfflineIntelligence
from memlane.types import Message

T0 = datetime(2024, 9, 2, 10, 0, tzinfo=UTC)


def _msgs(texts):
    return [Message(i + 1, 1, "s", "user", t, T0 + timedelta(minutes=i), i + 1) for i, t in enumerate(texts)]


def test_acronym_plurals_and_names_in_code_are_not_entities():
    _, ex = OfflineIntelligence().summarize("team", _msgs([
        "The residents in Harrowgate Court want chargers for their EVs before winter.",
        "Our treasurer Ravi says the invoices come out as PDFs with the totals off by a penny.",
        "We take payments through Stripe, round with ROUND_HALF_UP and cap retries at MAX_RETRIES.",
    ]))
    names = {e.name for e in ex.entities}
    assert not names & {"EVs", "PDFs", "ROUND_HALF_UP", "MAX_RETRIES"}
    assert {"Harrowgate Court", "Stripe", "Ravi"} <= names
