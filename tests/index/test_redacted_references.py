"""References that hold a redacted secret, and references named twice, in the offline summary."""

import string
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import OfflineIntelligence
from memlane.ingest.redact import redact
from memlane.types import Message

T0 = datetime(2024, 5, 6, 14, 0, tzinfo=UTC)


def _msgs(texts):
    return [Message(i + 1, 1, "s", "user", t, T0 + timedelta(minutes=i), i + 1) for i, t in enumerate(texts)]


_word = st.text(string.ascii_lowercase, min_size=2, max_size=10)
_secret = st.text(string.ascii_letters + string.digits, min_size=12, max_size=24).filter(
    lambda s: any(c.isdigit() for c in s) and any(c.isalpha() for c in s))


@settings(max_examples=60, deadline=None)
@given(scheme=st.sampled_from(["postgres", "postgresql", "mysql", "redis", "amqp", "mongodb"]),
       user=_word, secret=_secret, host=st.lists(_word, min_size=2, max_size=4).map(".".join),
       port=st.integers(1024, 65535), db=_word, after=st.sampled_from([", keep it handy.", ".", " for now", ""]))
def test_a_url_with_a_redacted_password_is_one_whole_reference(scheme, user, secret, host, port, db, after):
    text, n = redact(f"The staging connection string is {scheme}://{user}:{secret}@{host}:{port}/{db}{after}")
    assert n == 1 and "[REDACTED:" in text
    summary, _ = OfflineIntelligence().summarize("team", _msgs(["We moved billing to the new database.", text]))
    urls = [r for r in summary.references if "://" in r]
    assert len(urls) == 1
    url = urls[0]
    assert url.startswith(f"{scheme}://{user}:[REDACTED:") and url.endswith(f"@{host}:{port}/{db}")
    # no half of it is listed apart: not the host and port, not a bracket left open
    assert all(r == url or r not in url for r in summary.references)
    assert all(r.count("[") == r.count("]") for r in summary.references)


def test_a_key_named_with_and_without_its_kind_is_one_entity():
    _, ex = OfflineIntelligence().summarize("team", _msgs([
        "Agreed, we use PostgreSQL 16. Ticket BILL-142 tracks the migration.",
        "I'll note the decision, tracked in BILL-142.",
    ]))
    refs = [e.name for e in ex.entities if e.type == "reference"]
    assert refs == ["BILL-142"]
    # named only with its kind, the key stays an entity
    _, ex = OfflineIntelligence().summarize("team", _msgs(["Ticket BILL-142 tracks the migration."]))
    assert [e.name for e in ex.entities if e.type == "reference"] == ["Ticket BILL-142"]


_KEYWORD = st.sampled_from(["password", "passwd", "pwd", "passphrase", "token", "secret",
                            "apikey", "api-key", "credentials", "access_token", "auth-token"])


@settings(max_examples=80, deadline=None)
@given(scheme=st.sampled_from(["postgres", "mysql", "redis", "amqp"]), user=_word, secret=_secret,
       before=st.lists(_word, min_size=1, max_size=2), keyword=_KEYWORD,
       port=st.integers(1024, 65535), db=_word)
def test_a_host_named_like_a_secret_is_no_assignment(scheme, user, secret, before, keyword, port, db):
    """'@aa.passphrase:1024/aa' read as 'passphrase: 1024/aa' and redacted the port and path
    (hypothesis found it): a name inside a host or a dotted name is not a key being
    assigned. The URL's password is still the one thing redacted."""
    host = ".".join([*before, keyword])
    text, n = redact(f"The staging connection string is {scheme}://{user}:{secret}@{host}:{port}/{db}")
    assert n == 1 and secret not in text and text.endswith(f"@{host}:{port}/{db}")
    # the same key written as a key is still a secret assigned
    said, m = redact(f"{before[0]}.{keyword}: {secret}")
    assert m == 1 and secret not in said
