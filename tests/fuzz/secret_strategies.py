"""Hypothesis strategies for the secrets a user pastes into a chat, each as ``(text, secrets)``:
the text as it would be written (a header, an env line, JSON, prose) and the parts of it
that must never be stored or sent. Used by ``test_secret_property.py``."""

from __future__ import annotations

import base64
import json
import string

from hypothesis import strategies as st

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "_-"
SYMBOLS = "!@#$%^&*()-_=+~.?"


def chars(alphabet: str, low: int, high: int | None = None) -> st.SearchStrategy[str]:
    """``low``..``high`` characters of ``alphabet`` holding a letter and a digit (as real
    keys do, and as "a word" never does)."""
    letters = [c for c in alphabet if c.isalpha()]
    digits = [c for c in alphabet if c.isdigit()]
    return st.tuples(st.text(alphabet, min_size=max(low - 2, 1), max_size=(high or low) - 2),
                     st.sampled_from(letters), st.sampled_from(digits), st.integers(0, 10**6),
                     st.integers(0, 10**6)).map(_mix)


def _mix(p: tuple[str, str, str, int, int]) -> str:
    """``p[0]`` with a letter and a digit put in at places of their own."""
    text, letter, digit, i, j = p
    text = text[: i % (len(text) + 1)] + letter + text[i % (len(text) + 1):]
    return text[: j % (len(text) + 1)] + digit + text[j % (len(text) + 1):]


def _luhn_complete(prefix_digits: str, length: int) -> str:
    body = prefix_digits
    total = 0
    for i, c in enumerate(reversed(body)):  # the check digit's position is 0
        d = int(c)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str((10 - total % 10) % 10)


@st.composite
def card(draw: st.DrawFn) -> tuple[str, list[str]]:
    prefix, length = draw(st.sampled_from([("4", 16), ("51", 16), ("55", 16), ("2221", 16),
                                           ("34", 15), ("37", 15), ("6011", 16), ("65", 16),
                                           ("3530", 16), ("36", 14), ("62", 16)]))
    rest = draw(st.text("0123456789", min_size=length - len(prefix) - 1,
                        max_size=length - len(prefix) - 1))
    number = _luhn_complete(prefix + rest, length)
    sep = draw(st.sampled_from(["", " ", "-"]))
    written = sep.join(number[i:i + 4] for i in range(0, len(number), 4))
    return f"card {written} exp 09/29", [written]


@st.composite
def url_password(draw: st.DrawFn) -> tuple[str, list[str]]:
    scheme = draw(st.sampled_from(["postgres", "postgresql", "mysql", "redis", "rediss",
                                   "mongodb+srv", "amqp", "https", "ftp"]))
    user = draw(st.sampled_from(["", "app", "admin", "svc_billing"]))
    pw = draw(chars(ALNUM + "!$%*@#-_.~", 10, 30))
    host = draw(st.sampled_from(["db.internal:5432", "cache:6379", "cluster0.mongodb.net",
                                 "10.0.0.5"]))
    return f"{scheme}://{user}:{pw}@{host}/main", [pw]


@st.composite
def pem(draw: st.DrawFn) -> tuple[str, list[str]]:
    kind = draw(st.sampled_from(["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ", "DSA "]))
    lines = draw(st.lists(chars(B64, 64), min_size=1, max_size=4))
    block = (f"-----BEGIN {kind}PRIVATE KEY-----\n" + "\n".join(lines)
             + f"\n-----END {kind}PRIVATE KEY-----")
    return block, lines


@st.composite
def jwt(draw: st.DrawFn) -> tuple[str, list[str]]:
    head = "eyJ" + draw(chars(URLSAFE, 16, 40))
    body = "eyJ" + draw(chars(URLSAFE, 16, 60))
    sig = draw(st.one_of(st.just(""), chars(URLSAFE, 20, 43)))
    return f"{head}.{body}.{sig}", [body] + ([sig] if sig else [])


@st.composite
def basic_auth(draw: st.DrawFn) -> tuple[str, list[str]]:
    pw = draw(chars(ALNUM + SYMBOLS, 10, 24))
    token = base64.b64encode(f"admin:{pw}".encode()).decode()
    header = draw(st.sampled_from(["Authorization", "authorization", "Proxy-Authorization"]))
    return f"{header}: Basic {token}", [token.rstrip("=")]


@st.composite
def env_line(draw: st.DrawFn) -> tuple[str, list[str]]:
    name = draw(st.sampled_from(["SECRET_KEY", "DB_PASS", "DATABASE_PASSWORD", "STRIPE_KEY",
                                 "GITHUB_TOKEN", "SENDGRID_API_KEY", "APP_SECRET", "JWT_SECRET",
                                 "SESSION_SECRET", "SECRET_KEY_BASE", "AUTH_TOKEN"]))
    value = draw(chars(ALNUM + "!@#$%^&*(-_=+)", 12, 50))
    quote = draw(st.sampled_from(["", '"', "'"]))
    export = draw(st.sampled_from(["", "export "]))
    return f"{export}{name}={quote}{value}{quote}", [value]


@st.composite
def structured(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A secret as a value of JSON, YAML, TOML or code (a passphrase may hold spaces)."""
    key = draw(st.sampled_from(["password", "api_key", "apiKey", "client_secret", "token",
                                "accessToken", "secret", "db_password", "private_key"]))
    words = draw(st.lists(chars(ALNUM, 8, 14), min_size=1, max_size=4))
    value = " ".join(words) if key.endswith("password") else "".join(words)
    form = draw(st.sampled_from(["json", "json-in-string", "yaml", "yaml-quoted", "toml", "code"]))
    if form == "json":
        text = json.dumps({"user": "ana", key: value})
    elif form == "json-in-string":
        text = json.dumps(json.dumps({key: value}))
    elif form == "yaml":
        text = f"db:\n  host: localhost\n  {key}: {value}\n"
        if " " in value:
            text = f"db:\n  {key}: '{value}'\n"
    elif form == "yaml-quoted":
        text = f"db:\n  {key}: \"{value}\"\n"
    elif form == "toml":
        text = f'[service]\n{key} = "{value}"'
    else:
        text = f'client = Client({key}="{value}")'
    return text, words


@st.composite
def cookie(draw: st.DrawFn) -> tuple[str, list[str]]:
    a, b = draw(chars(ALNUM, 24, 40)), draw(chars(ALNUM, 24, 40))
    form = draw(st.integers(0, 3))
    if form == 0:
        return f"Cookie: sessionid={a}; csrftoken={b}; theme=dark", [a, b]
    if form == 1:
        return f"Set-Cookie: _shop_session={a}; Path=/; HttpOnly", [a]
    if form == 2:
        return f"PHPSESSID={a}", [a]
    return json.dumps({"session_id": a, "user": "ana"}), [a]


@st.composite
def prose(draw: st.DrawFn) -> tuple[str, list[str]]:
    if draw(st.booleans()):
        pw = draw(chars(ALNUM + "!@#$%&*_", 8, 20))
        lead = draw(st.sampled_from(["my wifi password is", "The password for the router is",
                                     "the new passphrase is now", "pw is"]))
        return f"{lead} {pw} btw", [pw]
    key = draw(chars(ALNUM, 24, 40))
    lead = draw(st.sampled_from(["my api key is", "The access token was", "our secret key is"]))
    return f"{lead} {key}.", [key]


def _prefixed(prefix: str, alphabet: str, low: int, high: int | None = None
              ) -> st.SearchStrategy[tuple[str, list[str]]]:
    return chars(alphabet, low, high).map(lambda r: (prefix + r, [prefix + r]))


PROVIDER_KEYS = st.one_of(
    _prefixed("sk-proj-", URLSAFE, 40, 60), _prefixed("sk-ant-api03-", URLSAFE, 60, 90),
    _prefixed("sk-", ALNUM, 40, 48), _prefixed("AIza", URLSAFE, 35),
    _prefixed("AKIA", string.ascii_uppercase + "234567", 16), _prefixed("ghp_", ALNUM, 36),
    _prefixed("github_pat_", ALNUM + "_", 82), _prefixed("glpat-", URLSAFE, 20),
    _prefixed("xoxb-1234567890-", ALNUM + "-", 30, 40), _prefixed("xapp-1-", ALNUM + "-", 40, 60),
    _prefixed("sk_live_", ALNUM, 24, 99), _prefixed("hf_", ALNUM, 34),
    _prefixed("npm_", ALNUM, 36), _prefixed("gsk_", ALNUM, 52), _prefixed("GOCSPX-", URLSAFE, 28),
    _prefixed("whsec_", ALNUM, 32), _prefixed("dckr_pat_", URLSAFE, 27),
    st.tuples(st.text("0123456789", min_size=9, max_size=9), chars(URLSAFE, 33)).map(
        lambda p: (f"{p[0]}:AA{p[1]}", [f"AA{p[1]}"])),  # Telegram bot token
)

AWS_SECRET = chars(B64, 40).flatmap(lambda k: st.sampled_from([
    (f"aws_secret_access_key = {k}", [k]), (json.dumps({"SecretAccessKey": k}), [k]),
    (f"my AWS secret key is {k} ok", [k])]))

BEARER = chars(ALNUM + "._~+/-", 20, 60).map(
    lambda t: (f"curl -H 'Authorization: Bearer {t}' https://api.example.com", [t]))

SECRET = st.one_of(PROVIDER_KEYS, AWS_SECRET, BEARER, basic_auth(), jwt(), url_password(), pem(),
                   card(), cookie(), env_line(), structured(), prose())
"""Any one secret of the classes above, as written."""

FILLER = st.sampled_from([
    "Here is the config I am using, can you check it?", "thanks, that fixed it",
    "I moved to Lisbon last spring and started running again.",
    "The deploy failed again at 09:30 after commit 3f9a1c0d7e5b2a4f6c8d0e1f2a3b4c5d6e7f8091.",
    "Can you remind me what we decided about the billing service?", "ok", "",
])
