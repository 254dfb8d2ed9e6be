import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.config import Config, load_config
from memlane.errors import ConfigError


def test_defaults_match_design():
    c = Config()
    assert c.ingest.session_gap_minutes == 30 and c.ingest.min_session_messages == 4
    assert (c.search.rrf_k, c.search.lexical_weight, c.search.vector_weight) == (60, 0.7, 0.3)
    assert c.search.default_privacy == ("private", "project")
    assert c.embedding.backend == "static"


def test_file_then_env_then_overrides(tmp_path):
    f = tmp_path / "memlane.toml"
    f.write_text('[memory]\ndb = "a.db"\n[memory.search]\nrrf_k = 30\nlexical_weight = 0.5\n')
    c = load_config(f, environ={"MEMLANE_SEARCH_RRF_K": "40", "MEMLANE_DB": "b.db"})
    assert (c.db, c.search.rrf_k, c.search.lexical_weight) == ("b.db", 40, 0.5)
    c = load_config(f, environ={}, overrides={"search": {"rrf_k": 7}})
    assert (c.db, c.search.rrf_k) == ("a.db", 7)


@pytest.mark.parametrize(("env", "needle"), [
    ({"MEMLANE_SEARCH_RRF_K": "many"}, "search.rrf_k"),
    ({"MEMLANE_SEARCH_RRF_K": "0"}, "search.rrf_k: must be an integer of at least 1, got 0"),
    ({"MEMLANE_INGEST_SESSION_GAP_MINUTES": "-1"}, "ingest.session_gap_minutes"),
    ({"MEMLANE_EMBEDDING_BACKEND": "bert"}, "embedding.backend"),
    ({"MEMLANE_EMBEDDING_BACKEND": "openai"}, "embedding.base_url"),
    ({"MEMLANE_SEARCH_COLOUR": "red"}, "MEMLANE_SEARCH_COLOUR: memory.search has no key 'colour'"),
    ({"MEMLANE_SEARCH_": "1"}, "MEMLANE_SEARCH_: memory.search has no key ''"),
    ({"MEMLANE_SEARCH_DEFAULT_PRIVACY": "private,secret"}, "search.default_privacy"),
    ({"MEMLANE_INGEST_REDACT_SECRETS": "maybe"}, "ingest.redact_secrets"),
    ({"MEMLANE_SERVE_THREADS": "-1"}, "serve.threads: must be an integer of at least 0, got -1"),
])
def test_bad_values_name_the_key(env, needle):
    with pytest.raises(ConfigError, match=needle):
        load_config(environ=env)


def test_bad_toml_and_missing_explicit_file(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("[memory\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(f, environ={})
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "none.toml", environ={})


def test_replace_validates():
    c = Config().replace(search={"rrf_k": 10})
    assert c.search.rrf_k == 10 and c.search.lexical_weight == 0.7
    with pytest.raises(ConfigError):
        Config().replace(search={"rrf_k": 0})


def test_env_lists_and_bools():
    c = load_config(environ={"MEMLANE_SEARCH_DEFAULT_PRIVACY": "private, shared",
                             "MEMLANE_INGEST_REDACT_SECRETS": "off"})
    assert c.search.default_privacy == ("private", "shared") and c.ingest.redact_secrets is False


def test_llm_services_and_indexing(tmp_path):
    f = tmp_path / "memlane.toml"
    f.write_text(
        '[memory.indexing]\nbackend = "llm"\nservice = "local"\n'
        '[llm.services.local]\nbase_url = "http://127.0.0.1:8080/v1"\nmodel = "qwen"\n'
        'requests_per_minute = 30\n'
    )
    c = load_config(f, environ={})
    assert c.indexing.backend == "llm" and c.llm_service("local").model == "qwen"
    assert c.llm_service("local").requests_per_minute == 30
    with pytest.raises(ConfigError, match="llm.services.other: not configured"):
        c.llm_service("other")
    f.write_text('[llm.services.x]\nmodel = "m"\n')
    with pytest.raises(ConfigError, match="llm.services.x: missing base_url"):
        load_config(f, environ={})
    f.write_text('[llm.services.x]\nbase_url = "ftp://x"\nmodel = "m"\n')
    with pytest.raises(ConfigError, match="base_url"):
        load_config(f, environ={})
    with pytest.raises(ConfigError, match="indexing.service"):
        load_config(environ={"MEMLANE_INDEXING_BACKEND": "llm"})
    assert load_config(environ={"MEMLANE_INDEXING_ENABLED": "false"}).indexing.enabled is False


# -- session 18 (qa18a): the file's shape, non-finite and oversized values ---------------

@pytest.mark.parametrize(("text", "needle"), [
    ('[memroy.ingest]\nsession_gap_minutes = 5\n', r"unknown table\(s\) or key\(s\) \['memroy'\]"),
    ('db = "other.db"\n', r"\['db'\] at the top level"),
    ('llm = 5\n', r"\[llm\] holds only"),
    ('[llm]\nservice = "x"\n', r"\[llm\] holds only"),
    ('[memory.ingest]\nsession_gap_minutes = inf\n', "ingest.session_gap_minutes: must be a finite"),
    ('[memory.search]\nlexical_weight = -inf\n', "search.lexical_weight: must be a finite"),
    ('[memory.serve]\nworker_poll_seconds = nan\n', "serve.worker_poll_seconds: must be a finite"),
    ('[memory.hygiene]\ncompact_older_than_days = 1e999\n', "compact_older_than_days: must be a finite"),
    ('[memory.ingest]\nmax_message_chars = 99999999999999999999999\n',
     "max_message_chars: must be an integer of at least 1 that 64 bits hold, got 99999999999999999999999"),
    ('[memory.pack]\nbudget = 1e30\n', "pack.budget: must be an integer from 16 to 1000000, got a 31-digit number"),
    ('[memory.pack]\nbudget = 2000000\n', "pack.budget: must be an integer from 16 to 1000000, got 2000000"),
    ('[memory.pack]\ncandidates = 5000\n', "pack.candidates: must be an integer from 1 to 1000, got 5000"),
    ('[memory.pack]\ncandidates = 0\n', "pack.candidates: must be an integer from 1 to 1000, got 0"),
    ('[memory.search]\ndefault_k = 5000\n', "search.default_k: must be an integer from 1 to 1000, got 5000"),
    ('[memory.ingest]\nredact_patterns = [{a = 1}]\n', "redact_patterns: expected a list of strings"),
    ('[memory.facts]\nmulti_valued = [1, 2]\n', "multi_valued: expected a list of strings"),
    ('[memory.search]\ndefault_privacy = []\n', "default_privacy: must name at least one"),
    ('[memory.embedding]\nbackend = "openai"\nmodel = "m"\nbase_url = "127.0.0.1:8080/v1"\n',
     "embedding.base_url: must be an http"),
    ('[memory.serve]\nworker_poll_seconds = 1e12\n', "serve.worker_poll_seconds: must be from"),
    ('[memory.mcp]\nworker_poll_seconds = 0.001\n', "mcp.worker_poll_seconds: must be from"),
    ('[memory.pack]\nslot_order = ["facts", "facts"]\n', r"slot_order: names \['facts'\] more"),
    ('[memory.retrieval]\nkind_bonuses = ["turn.user:nan"]\n', "kind_bonuses: .* finite"),
    ('[memory.hygiene]\nlane_caps = ["ephemeral=\u00b2"]\n', "lane_caps: .* whole number"),
])
def test_file_shapes_and_values_memlane_cannot_use_are_refused(tmp_path, text, needle):
    f = tmp_path / "memlane.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_config(f, environ={})


def test_a_config_path_that_is_a_directory_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="is not a file"):
        load_config(tmp_path, environ={})


def test_env_override_of_a_section_the_file_sets_to_a_value(tmp_path):
    f = tmp_path / "memlane.toml"
    f.write_text("[memory]\ningest = 5\n")
    with pytest.raises(ConfigError, match="memory.ingest: must be a table"):
        load_config(f, environ={"MEMLANE_INGEST_SESSION_GAP_MINUTES": "5"})


def _keys() -> list[tuple[str, str]]:
    import dataclasses

    from memlane.config import _SECTIONS

    return [(s, f.name) for s, cls in _SECTIONS.items() for f in dataclasses.fields(cls)]


_VALUES = st.one_of(
    st.text(max_size=30), st.integers(), st.floats(), st.booleans(), st.none(),
    st.lists(st.one_of(st.text(max_size=8), st.integers(), st.floats()), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.sampled_from(["inf", "-inf", "nan", "1e999", "9" * 30, "-0", " 3 ", "0x10", "1_000"]),
    st.sampled_from(["", ",", "private,private", "facts,facts", "ephemeral=\u00b2",
                     "ephemeral=" + "9" * 30, "turn.user:nan", "turn.user:inf", "note:1e999",
                     "ephemeral=\u0663"]),
)


@settings(max_examples=400, deadline=None)
@given(key=st.sampled_from(_keys()), value=_VALUES, env=st.booleans())
def test_any_value_of_any_key_loads_sound_or_is_a_config_error(key, value, env):
    """From the environment (a string) or a file/override (any TOML-like value): a value
    either loads into finite floats and 64-bit integers or is refused naming its key as
    ``section.key`` (and, from the environment, the variable that set it; session 21: a
    negative ``fusion_vector`` named ``retrieval.fusion_lexical``, and no error named the
    variable a value came from)."""
    import dataclasses
    import math

    section, name = key
    variable = f"MEMLANE_{section.upper()}_{name.upper()}"
    try:
        if env:
            c = load_config(environ={variable: str(value)})
        else:
            c = load_config(environ={}, overrides={section: {name: value}})
    except ConfigError as e:
        assert f"{section}.{name}" in str(e), str(e)
        assert not env or f"(set by {variable})" in str(e), str(e)
        return
    got = getattr(getattr(c, section), name)
    assert all(0 <= n < 2**63 for n in c.hygiene.caps().values())
    assert all(math.isfinite(v) for v in c.retrieval.kind_bonus_map().values())
    for v in (got if isinstance(got, tuple) else (got,)):
        if isinstance(v, float):
            assert math.isfinite(v)
        if isinstance(v, int):
            assert -2**63 <= v < 2**63
    assert dataclasses.is_dataclass(getattr(c, section))


def test_a_byte_order_mark_and_crlf_lines_are_read(tmp_path):
    """A file saved by Notepad ('\\ufeff' first, CRLF) read 'not valid TOML: Invalid
    statement (at line 1, column 1)'."""
    f = tmp_path / "memlane.toml"
    f.write_bytes(b"\xef\xbb\xbf[memory.search]\r\nrrf_k = 30\r\n")
    assert load_config(f, environ={}).search.rrf_k == 30


def test_an_empty_config_name_is_named_as_such(tmp_path, monkeypatch):
    """MEMLANE_CONFIG= and --config "" read 'config file . is not a file'."""
    with pytest.raises(ConfigError, match="MEMLANE_CONFIG: '' names no config file"):
        load_config(environ={"MEMLANE_CONFIG": ""})
    with pytest.raises(ConfigError, match="--config: ' ' names no config file"):
        load_config(" ", environ={})
    home = tmp_path / "home"
    home.mkdir()
    (home / "m.toml").write_text("[memory.search]\nrrf_k = 7\n")
    monkeypatch.setenv("HOME", str(home))
    assert load_config("~/m.toml", environ={}).search.rrf_k == 7


def test_a_named_service_without_its_table_is_refused_at_load(tmp_path):
    """indexing.service = "locl" beside [llm.services.local] loaded, and every index run
    (a server's worker: every round) then failed."""
    f = tmp_path / "memlane.toml"
    svc = '[llm.services.local]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n'
    f.write_text('[memory.indexing]\nbackend = "llm"\nservice = "locl"\n' + svc)
    with pytest.raises(ConfigError, match=r"indexing.service: no \[llm.services.locl\] table "
                                          r"\(configured: local\)"):
        load_config(f, environ={})
    f.write_text('[memory.retrieval]\nhyde = true\nhyde_service = "x"\n' + svc)
    with pytest.raises(ConfigError, match=r"retrieval.hyde_service: no \[llm.services.x\]"):
        load_config(f, environ={})
    f.write_text('[memory.indexing]\nservice = "unused"\n' + svc)  # offline: not used
    assert load_config(f, environ={}).indexing.service == "unused"


@pytest.mark.parametrize(("key", "value", "field"), [
    ("llm.services.x.temperature", -1, "llm.services.x.temperature"),
    ("llm.services.x.temperature", 5, "llm.services.x.temperature"),
    ("memory.indexing.lease_seconds", 2.5e11, "indexing.lease_seconds"),
    ("memory.indexing.retry_base_seconds", 1e9, "indexing.retry_base_seconds"),
])
def test_values_a_run_would_overflow_or_an_endpoint_refuse_are_refused_at_load(tmp_path, key, value, field):
    """A lease of 2.5e11 s made `memlane index` and `stats` raise OverflowError on a leased
    session; a temperature of 5 was sent to the endpoint on every call (session 18)."""
    section, _, name = key.rpartition(".")
    body = ('[llm.services.x]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n' if section.startswith("llm")
            else "") + (f"[{section}]\n" if not section.startswith("llm") else "") + f"{name} = {value!r}\n"
    path = tmp_path / "m.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
        load_config(path, environ={})


def test_a_backend_registered_by_name_is_accepted_and_a_misspelt_one_named(tmp_path):
    from memlane.backends.registry import _INTELLIGENCE, register_intelligence
    from memlane.index.offline import OfflineIntelligence

    register_intelligence("mine", lambda config: OfflineIntelligence())
    try:
        assert load_config(None, environ={}, overrides={"indexing": {"backend": "mine"}}).indexing.backend == "mine"
        with pytest.raises(ConfigError, match=r"indexing\.backend: must be one of .*offline.*got 'ofline'"):
            load_config(None, environ={}, overrides={"indexing": {"backend": "ofline"}})
    finally:
        _INTELLIGENCE.pop("mine")


# -- list keys given as one string (session 20) -------------------------------------------
# MEMLANE_INGEST_REDACT_PATTERNS='ACCT-\d{3,4}' was cut at its comma into 'ACCT-\d{3' and
# '4}', two patterns that compile and never match: the account numbers were stored as they
# were, without a word (found by qa20b redacting through the environment).

def test_a_redact_pattern_with_a_comma_is_refused_not_cut():
    with pytest.raises(ConfigError) as e:
        load_config(environ={"MEMLANE_INGEST_REDACT_PATTERNS": r"ACCT-\d{3,4}"})
    assert "memory.ingest.redact_patterns" in str(e.value) and "JSON" in str(e.value)
    assert "MEMLANE_INGEST_REDACT_PATTERNS" in str(e.value)


def test_a_redact_pattern_given_as_a_json_list_redacts(tmp_path):
    from memlane.testing import memory

    cfg = load_config(environ={"MEMLANE_INGEST_REDACT_PATTERNS": r'["ACCT-\\d{3,4}", "zz+"]'})
    assert cfg.ingest.redact_patterns == (r"ACCT-\d{3,4}", "zz+")
    with memory(tmp_path / "m.db", ingest={"redact_patterns": cfg.ingest.redact_patterns}) as mem:
        text = mem.add_message("s", "user", "account ACCT-1234, code zzz").text
    assert "1234" not in text and "zzz" not in text and text.count("[REDACTED:custom#") == 2


def test_a_list_key_string_in_the_config_file_follows_the_same_rule(tmp_path):
    path = tmp_path / "memlane.toml"
    path.write_text('[memory.ingest]\nredact_patterns = "ACCT-\\\\d{3,4}"\n')
    with pytest.raises(ConfigError, match="holds a comma"):
        load_config(path, environ={})
    path.write_text('[memory.ingest]\nredact_patterns = "ACCT-\\\\d+"\n')
    assert load_config(path, environ={}).ingest.redact_patterns == (r"ACCT-\d+",)


@pytest.mark.parametrize("value", ['["a", 1]', '["a"', ' ["private", null]'])
def test_a_bad_json_list_names_the_key(value):
    with pytest.raises(ConfigError, match="memory.search.default_privacy: .*JSON list"):
        load_config(environ={"MEMLANE_SEARCH_DEFAULT_PRIVACY": value})


_patterns = st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1,
                               max_size=12).filter(str.strip), max_size=4)  # a blank scope
# pattern is refused on its own account


@settings(max_examples=100, deadline=None)
@given(patterns=_patterns)
def test_any_list_of_strings_survives_the_environment_as_json(patterns):
    """Every list key takes a JSON list through its variable, whatever its items hold
    (commas, brackets, quotes, spaces); the items arrive exactly."""
    import json
    import re

    env = {"MEMLANE_MCP_ALLOWED_SCOPES": json.dumps(patterns)}
    assert load_config(environ=env).mcp.allowed_scopes == tuple(patterns)
    try:
        for p in patterns:
            re.compile(p)
    except re.error:
        return
    env = {"MEMLANE_INGEST_REDACT_PATTERNS": json.dumps(patterns)}
    assert load_config(environ=env).ingest.redact_patterns == tuple(patterns)


# -- session 20 (qa20c): an [llm.services.NAME] table an operator writes --------------------

@pytest.mark.parametrize(("body", "needle"), [
    # a bad value named no service: with two tables, which one's timeout was 0?
    ('timeout_seconds = 0', "llm.services.slow.timeout_seconds: must be > 0"),
    ('temperature = 3', "llm.services.slow.temperature: must be 0-2"),
    # 1e12 s loaded, then every request raised a bare OverflowError from the socket layer
    ('timeout_seconds = 1e12', "llm.services.slow.timeout_seconds: must be > 0 and at most 86,400"),
    ('timeout_seconds = "1e12"', "at most 86,400 (a day), got 1e+12"),
])
def test_a_bad_llm_service_value_names_its_service(tmp_path, body, needle):
    f = tmp_path / "m.toml"
    f.write_text('[llm.services.fast]\nbase_url = "http://127.0.0.1:8080/v1"\nmodel = "m"\n'
                 '[llm.services.slow]\nbase_url = "http://127.0.0.1:8081/v1"\nmodel = "m"\n'
                 + body + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(f, environ={})
    assert needle in str(info.value)


@pytest.mark.parametrize("url", ["http://", "https:///v1", "http://:8080/v1"])
def test_a_base_url_without_a_host_is_refused_at_load(tmp_path, url):
    # it loaded, and each request failed 'Request URL is missing an 'http://' or 'https://'
    # protocol' (for 'http://', which has one)
    f = tmp_path / "m.toml"
    f.write_text(f'[llm.services.x]\nbase_url = "{url}"\nmodel = "m"\n')
    with pytest.raises(ConfigError, match=r"llm.services.x.base_url: names no host"):
        load_config(f, environ={})
    from memlane.backends.llm import OpenAIChat

    with pytest.raises(ValueError, match="base_url names no host"):
        OpenAIChat(url, "m")
    with pytest.raises(ValueError, match="timeout must be > 0 and at most 86,400"):
        OpenAIChat("http://127.0.0.1:8080/v1", "m", timeout=1e12)


@pytest.mark.parametrize(("env", "needle"), [
    ({"MEMLANE_RETRIEVAL_FUSION_VECTOR": "-1"},
     "retrieval.fusion_vector: must be >= 0 (set by MEMLANE_RETRIEVAL_FUSION_VECTOR)"),
    ({"MEMLANE_CONFIDENCE_STALENESS_DAYS": "400"},
     "must be greater than memory.confidence.staleness_days (365 <= 400) "
     "(set by MEMLANE_CONFIDENCE_STALENESS_DAYS)"),
    ({"MEMLANE_SEARCH_RRF_K": "many"}, "memory.search.rrf_k: expected int, got 'many' "
     "(set by MEMLANE_SEARCH_RRF_K)"),
    ({"MEMLANE_EMBEDDING_BACKEND": "openai"},
     "embedding.base_url: is required for memory.embedding.backend = openai "
     "(set by MEMLANE_EMBEDDING_BACKEND)"),
    ({"MEMLANE_INDEXING_BACKEND": "llm", "MEMLANE_INDEXING_SERVICE": "gpt"},
     r"indexing.service: no \[llm.services.gpt\] table \(configured: none\) "
     r"\(set by MEMLANE_INDEXING_SERVICE\)"),
])
def test_a_bad_value_from_the_environment_names_its_key_and_its_variable(env, needle):
    """A value read from a variable is in no file to look for: the error names the key the
    user set (not its neighbour) and the variable it came from (session 21)."""
    with pytest.raises(ConfigError) as e:
        load_config(environ=env)
    assert re.search(needle if "\\" in needle else re.escape(needle), str(e.value)), str(e.value)


def _int_keys() -> list[tuple[str, str]]:
    """Every integer key: ``(section, name)`` of ``[memory.SECTION]``, and ``("llm", name)``
    of an ``[llm.services.NAME]`` table."""
    import dataclasses
    import typing

    from memlane.config import _SECTIONS, LLMServiceConfig

    tables = [*_SECTIONS.items(), ("llm", LLMServiceConfig)]
    return [(s, f.name) for s, cls in tables for f in dataclasses.fields(cls)
            if typing.get_type_hints(cls)[f.name] is int]


def _load_int(section: str, name: str, value: int, env: bool) -> None:
    service = {"base_url": "http://127.0.0.1:9/v1", "model": "m"}
    if section == "llm":
        load_config(environ={}, overrides={"llm_services": {"x": {**service, name: value}}})
    elif env:
        load_config(environ={f"MEMLANE_{section.upper()}_{name.upper()}": str(value)})
    else:
        load_config(environ={}, overrides={section: {name: value}})


_RANGE = re.compile(r"must be an integer (?:from (-?\d+) to (-?\d+)|of at least (-?\d+)), got ")


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(_int_keys()), env=st.booleans(),
       value=st.one_of(st.integers(), st.integers(-2**70, 2**70),
                       st.sampled_from([-1, 0, 1, 2, 15, 16, 255, 256, 1023, 1024, 65536,
                                        2**63 - 1, 2**63, -2**63 - 1, 10**30])))
def test_every_integer_key_words_its_range_as_every_other_surface(key, env, value):
    """Session 31: a config key's range read ``must be from 1 to 1000``, ``must be >= 1``,
    ``must be 0-64``, ``must be between 0 and 20``, where every CLI option, library, HTTP
    and MCP parameter says ``must be an integer from 1 to 1000`` / ``of at least 1``
    (``validate.int_range``). Every integer key states its range in those words, naming
    the key (and the variable that set it), and loads exactly the values in that range."""
    from memlane.ingest.validate import INT64_MAX, int_range, int_refused

    section, name = key
    full = f"llm.services.x.{name}" if section == "llm" else f"memory.{section}.{name}"
    with pytest.raises(ConfigError) as probe:  # below every key's range
        _load_int(section, name, -2**63, env=False)
    stated = _RANGE.search(str(probe.value))
    assert stated, str(probe.value)
    low = int(stated[1] if stated[1] is not None else stated[3])
    high = int(stated[2]) if stated[2] is not None else INT64_MAX
    assert str(probe.value).startswith(f"{full}: must be an integer {int_range(low, high)}, got ")
    try:
        _load_int(section, name, value, env)
    except ConfigError as e:
        assert not low <= value <= high, str(e)
        said = str(e)
        assert said.startswith(f"{full}: {int_refused(value, low, high)}"), said
        variable = f"MEMLANE_{section.upper()}_{name.upper()}"
        assert (said.endswith(f" (set by {variable})")) == (env and section != "llm"), said
        return
    assert low <= value <= high
