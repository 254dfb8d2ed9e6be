import pytest

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
    ({"MEMLANE_SEARCH_RRF_K": "0"}, "search.rrf_k: must be >= 1"),
    ({"MEMLANE_INGEST_SESSION_GAP_MINUTES": "-1"}, "ingest.session_gap_minutes"),
    ({"MEMLANE_EMBEDDING_BACKEND": "bert"}, "embedding.backend"),
    ({"MEMLANE_EMBEDDING_BACKEND": "openai"}, "embedding.base_url"),
    ({"MEMLANE_SEARCH_COLOUR": "red"}, "unknown key"),
    ({"MEMLANE_SEARCH_DEFAULT_PRIVACY": "private,secret"}, "search.default_privacy"),
    ({"MEMLANE_INGEST_REDACT_SECRETS": "maybe"}, "ingest.redact_secrets"),
    ({"MEMLANE_SERVE_THREADS": "-1"}, "serve.threads: must be >= 0"),
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
