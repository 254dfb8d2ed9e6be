"""The README and docs/ say what the code does: every config key and command option that
exists is documented where users look, and everything documented exists (a README row
lacked `bench longmemeval --now` and `bench locomo --embedder`)."""

from __future__ import annotations

import dataclasses
import re
import shlex
import tomllib
from pathlib import Path

import click

from memlane.config import _SECTIONS, LLMServiceConfig, load_config
from memlane.serve.cli import cli
from memlane.testing import cli_commands

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
DOCS = {p.name: p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}
GLOBAL = {"--db", "--config", "--json", "--help", "-h"}



def _flags(cmd: click.Command) -> set[str]:
    return {f for p in cmd.params if isinstance(p, click.Option) and not p.hidden
            for f in (*p.opts, *p.secondary_opts)}


def _readme_toml() -> str:
    start = README.index("```toml", README.index("## Configuration")) + len("```toml")
    return README[start:README.index("```", start)]


def _default(field: dataclasses.Field) -> object:
    value = field.default if field.default is not dataclasses.MISSING else field.default_factory()  # type: ignore[misc]
    return list(value) if isinstance(value, tuple) else value


def test_every_config_key_is_in_the_readme_with_its_variable_and_its_default(tmp_path):
    documented = tomllib.loads(_readme_toml())
    block = _readme_toml()
    for section, cls in _SECTIONS.items():
        table = documented["memory"].get(section, {})
        for f in dataclasses.fields(cls):
            where = f"memory.{section}.{f.name}"
            assert f.name in table, f"README's [memory.{section}] lacks {f.name}"
            assert re.search(rf"# MEMLANE_{section.upper()}_{f.name.upper()}\b", block), where
            if (section, f.name) == ("facts", "multi_valued"):  # shown abridged, with "..."
                assert set(table[f.name][:-1]) <= set(_default(f)), table[f.name]
                continue
            assert table[f.name] == _default(f), f"{where}: README {table[f.name]!r}, code {_default(f)!r}"
        assert set(table) <= {f.name for f in dataclasses.fields(cls)}, section
    assert set(documented["memory"]) - {"db"} <= set(_SECTIONS)
    service = documented["llm"]["services"]["local"]
    assert set(service) == {f.name for f in dataclasses.fields(LLMServiceConfig)}
    path = tmp_path / "memlane.toml"
    path.write_text(block)
    load_config(path, environ={})  # the block a user copies loads as it is


def test_every_command_row_names_each_option_and_only_real_ones():
    rows = [line for line in README.splitlines() if line.startswith("| `memlane ")]
    for path, cmd in cli_commands():
        name = "memlane " + " ".join(path)
        mine = [r for r in rows if re.match(rf"\| `{re.escape(name)}[ `]", r)]
        assert mine, f"README has no row for {name}"
        usage, description = re.split(r"(?<!\\)\|", mine[0])[1:3]
        named = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", usage + description))
        flags = _flags(cmd)
        for option in flags - GLOBAL:
            assert option in named, f"{name}: README row lacks {option}"
        assert named - flags - GLOBAL == set(), f"{name}: README row names {named - flags - GLOBAL}"


def _invocations(text: str) -> list[str]:
    found = re.findall(r"`(memlane [^`]+)`", text)
    for block in re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S):
        for line in block.splitlines():
            m = re.search(r"(?:^|\$ |\$\(|; |&& )(memlane [^#|)]*)", line)
            if m:
                found.append(m.group(1).strip())
    return found


def test_every_memlane_command_line_in_the_docs_is_a_real_command_with_real_options():
    checked = 0
    for doc, text in {"README.md": README, **DOCS}.items():
        for line in _invocations(text):
            try:
                words = shlex.split(line.replace("\\|", "|"))[1:]
            except ValueError:
                words = line.split()[1:]
            while words[:1] in (["--db"], ["--config"]):
                words = words[2:]
            cmd: click.Command = cli
            path: list[str] = []
            while isinstance(cmd, click.Group) and words and not words[0].startswith("-"):
                sub = cmd.get_command(click.Context(cmd), words[0])
                if sub is None:
                    break
                cmd, path, words = sub, [*path, words[0]], words[1:]
            if not path:  # prose: "memlane has", "memlane owns"
                continue
            if isinstance(cmd, click.Group):
                assert not words or words[0].startswith("-"), f"{doc}: {line!r}: no command {words[0]!r}"
            flags = _flags(cmd) | GLOBAL  # a group's own: `memlane facts --subject` is no command
            for word in words:
                for flag in word.strip("[]().,;").split("=")[0].split("/"):
                    if flag.startswith("--") or re.fullmatch(r"-[a-z]", flag):
                        assert flag in flags, f"{doc}: {line!r}: memlane {' '.join(path)} has no option {flag}"
            checked += 1
    assert checked > 40


def test_every_environment_variable_memlane_reads_is_documented():
    docs = README + "".join(DOCS.values())
    names = set()
    for source in (ROOT / "src" / "memlane").rglob("*.py"):
        names |= set(re.findall(r"\bMEMLANE_[A-Z_]*[A-Z]\b", source.read_text()))
    for name in sorted(names):
        if name.startswith(tuple(f"MEMLANE_{s.upper()}_" for s in _SECTIONS)):
            continue  # the config keys' variables: checked above
        assert name in docs, f"{name} is read but not documented"


# -- session 21: what the checks above missed ----------------------------------------------

def test_the_abridged_multi_valued_default_says_how_many_it_holds():
    """The README shows ``facts.multi_valued`` abridged and says how many the default holds:
    it said 55 while the code held 56."""
    from memlane.config import FactsConfig

    said = re.search(r"the default holds (\d+)", _readme_toml())
    assert said, "README's [memory.facts] no longer says how many multi_valued holds"
    assert int(said.group(1)) == len(FactsConfig().multi_valued)


def test_the_llm_service_block_shows_each_optional_keys_default():
    service = tomllib.loads(_readme_toml())["llm"]["services"]["local"]
    for f in dataclasses.fields(LLMServiceConfig):
        if f.default is not dataclasses.MISSING:
            assert service[f.name] == f.default, f"llm.services.NAME.{f.name}: README " \
                f"{service[f.name]!r}, code {f.default!r}"


def _command_line_section() -> str:
    start = README.index("## Command line")
    return README[start:README.index("\n## ", start + 1)]


def test_every_option_of_memlane_itself_is_documented():
    """``memlane --version`` existed and no page said so."""
    text = _command_line_section()
    for option in _flags(cli) - {"--help", "-h"}:
        assert re.search(rf"`(?:memlane )?{re.escape(option)}\b", text), \
            f"README's Command line section lacks memlane {option}"


def test_every_command_row_names_its_arguments():
    rows = [line for line in README.splitlines() if line.startswith("| `memlane ")]
    for path, cmd in cli_commands():
        name = "memlane " + " ".join(path)
        row = next(r for r in rows if re.match(rf"\| `{re.escape(name)}[ `]", r))
        usage = re.split(r"(?<!\\)\|", row)[1].strip().strip("`")[len(name):].split()
        named = []
        for word in usage:
            if word[0] in "[-(":
                break
            named.append(word)
        arguments = [p for p in cmd.params if isinstance(p, click.Argument)]
        assert len(named) == len(arguments), f"{name}: README {named}, command {[a.name for a in arguments]}"
        assert all(w.isupper() for w in named), f"{name}: {named}"


_SAID_DEFAULT = re.compile(r"default:? (?P<key>[a-z]+\.[a-z_]+)(?:, (?!else\b)(?P<value>[^);]+))?")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_help_text_naming_a_config_key_names_a_real_one_with_its_default():
    """``--help`` is what users read first: "(default: pack.budget, 1000)" must name a key
    that exists and the value the code defaults to."""
    defaults = {f"{s}.{f.name}": _default(f) for s, cls in _SECTIONS.items()
                for f in dataclasses.fields(cls)}
    checked = 0
    for path, cmd in cli_commands():
        for p in cmd.params:
            for m in _SAID_DEFAULT.finditer(getattr(p, "help", None) or ""):
                where = f"memlane {' '.join(path)} {p.opts[0] if p.opts else p.name}"
                if m["key"].split(".")[0] not in _SECTIONS:
                    continue  # "default bench-out/locomo-<time>", "default key-<prefix>"
                assert m["key"] in defaults, f"{where}: no config key {m['key']}"
                if m["value"]:
                    assert m["value"].strip() == _shown(defaults[m["key"]]), \
                        f"{where}: help says {m['value']!r}, {m['key']} defaults to {defaults[m['key']]!r}"
                checked += 1
    assert checked >= 10


# -- session 30: the README walked ---------------------------------------------------------

def test_every_statement_of_the_untouched_summary_sets_names_the_newest_one():
    """The README's ``bench summaries`` row said "``heldout5`` to ``heldout24``: the untouched
    sets of sessions 9 to 27" while ``--set`` took heldout25 and heldout26 and its ``--help``
    said 26 and 29: each session's new set updated the choices and the help, not the row."""
    from memlane.bench.summaries.run import FRESH
    from memlane.testing import cli_commands

    newest = max(int(name.removeprefix("heldout")) for name in FRESH)
    command = dict(cli_commands())[("bench", "summaries")]
    texts = {"README.md": README, **DOCS,
             "bench summaries --help": " ".join(p.help or "" for p in command.params
                                                 if isinstance(p, click.Option))}
    said = [(where, int(m["last"]), int(m["session"])) for where, text in texts.items()
            for m in re.finditer(r"heldout5`? to `?heldout(?P<last>\d+)`?: the untouched sets of "
                                 r"sessions 9 to (?P<session>\d+)", " ".join(text.split()))]
    assert {w for w, _, _ in said} >= {"README.md", "bench summaries --help"}, said
    # heldout8 and heldout9 are both session 12's; session 33 wrote none (heldout30 is 34's, heldout31 35's, heldout32 36's,
    # heldout33 37's, heldout34 38's, heldout35 39's, heldout36 40's, heldout37 41's, heldout38 42's,
    # heldout39 43's, heldout40 44's, heldout41 45's, heldout42 46's, heldout43 47's, heldout44 48's, heldout45 49's, heldout46 50's,
    # heldout47 51's, heldout48 52's, heldout49 53's, heldout50 54's,
    # heldout51 55's, heldout52 56's, heldout53 57's, heldout54 58's)
    session = newest + 3 + (newest >= 30)
    for where, last, said_session in said:
        assert (last, said_session) == (newest, session), f"{where}: heldout5 to heldout{last}, " \
            f"sessions 9 to {said_session}; --set takes up to heldout{newest} (session {session})"


def test_the_number_spellings_the_readme_says_are_read_are_read_where_it_says():
    """The README said ``1e3`` is read in a variable, a quoted value or a CLI option, and
    ``MEMLANE_PACK_BUDGET=1e3`` was refused (``expected int``), as ``--budget 1e3`` was: only
    a key or option taking a fraction reads it. Each spelling the sentence quotes is read, or
    refused, by a whole-number and a fractional key and option as it says."""
    from memlane.config import _coerce
    from memlane.errors import ConfigError
    from memlane.serve.cli_common import Float, Int

    section = README[README.index("## Configuration"):]
    sentence = " ".join(section[section.index("A number in a variable"):].split("naming the key")[0].split())
    read, rest = sentence.split(" are read", 1)
    everywhere = re.findall(r"`([^`]+)`", read)
    fractional = re.findall(r"`([^`]+)`", rest.split("where a fraction")[0])
    refused = re.findall(r"`([^`]+)`", rest.split("digits of other scripts")[1].split("are refused")[0])
    assert {"1_000", "+3"} <= set(everywhere) and "1e3" in fractional, sentence
    assert {"٣", "1e309"} <= set(refused), sentence

    def reads(text: str, kind: type) -> bool:
        try:
            _coerce(f" {text} ", kind, "memory.x.y")
        except ConfigError:
            config = False
        else:
            config = True
        option = Int() if kind is int else Float(None)
        try:
            option.convert(text, None, None)
        except click.BadParameter:
            cli_read = False
        else:
            cli_read = True
        assert config == cli_read, (text, kind, config, cli_read)  # one rule on both surfaces
        return config

    for text in everywhere:
        assert reads(text, int) and reads(text, float), text
    for text in fractional:
        assert reads(text, float) and not reads(text, int), text
    for text in refused:
        assert not reads(text, float) and not reads(text, int), text


def test_every_file_of_the_repository_the_readme_names_exists():
    """The README sent readers to ``STACK.md`` for the vector index's cost ("7.6 ms a query
    at 100k vectors"), a file the repository never held. Every repository path it names
    (``docs/…``, ``tools/…``, ``tests/…``, ``src/memlane/…``, a top-level ``NAME.md``) is one."""
    refs = set(re.findall(r"(?<![\w/.-])((?:docs|tools|tests|src/memlane)/[\w./-]*\w|[A-Z][A-Z_]+\.md)\b",
                          README))
    assert len(refs) >= 15, refs
    missing = sorted(ref for ref in refs if not (ROOT / ref).exists())
    assert not missing, f"README names {missing}, which the repository does not hold"


def test_the_readmes_live_paragraph_names_every_topic_a_change_can_carry():
    """The README's Live memory state paragraph listed 15 of the 22 topics of
    ``live.TOPICS``: a client written from it dropped ``scope.erased`` and
    ``session.erased``, the events that empty its state, as the stream did before session 20.
    Each topic is named there, whole or after its family (``session.opened`` / ``closed``)."""
    from memlane.serve.live import TOPICS

    start = README.index("Each change has a strictly increasing id and a topic")
    paragraph = " ".join(README[start:README.index("\n\n", start)].split())
    named: set[str] = set()
    for run in re.findall(r"`[a-z.]+`(?: / `[a-z]+`)*", paragraph):
        words = re.findall(r"`([a-z.]+)`", run)
        family = words[0].rsplit(".", 1)[0]
        named |= {words[0], *(f"{family}.{w}" for w in words[1:])}
    missing = sorted(set(TOPICS) - named)
    assert not missing, f"README's live paragraph lacks {missing}"


# -- session 31: the docs pages a user reads after the README ------------------------------

def _protocol_members(cls: type) -> set[str]:
    own = {n for n in vars(cls) if not n.startswith("_")}
    return own | set(getattr(cls, "__annotations__", {}))


def test_the_store_pages_parts_of_a_backend_are_the_codes():
    """docs/store.md's table of the contract's protocols lacked ``ChangeStore`` (the live
    stream's change log, which ``Store`` includes), and its recipe for a new backend
    ("Implement ``SqlDatabase`` (``execute``, …)") lacked ``probe_write``, ``check_schema``
    and ``migrated``: a backend written from the page was no ``Store``. Both lists are the
    code's, no more and no less."""
    from typing import Protocol

    from memlane.store import contract
    from memlane.store.sql.base import SqlDatabase

    page = DOCS["store.md"]
    table = page[page.index("## The contract"):page.index("## Layout")]
    rows = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    protocols = {name for name, obj in vars(contract).items()
                 if isinstance(obj, type) and Protocol in obj.__mro__[1:]
                 and obj.__module__ == contract.__name__}
    assert rows == protocols, (f"store.md's contract table lacks {sorted(protocols - rows)}, "
                               f"names {sorted(rows - protocols)}")
    recipe = re.search(r"Implement `SqlDatabase` \(([^)]*)\)", " ".join(page.split()))
    assert recipe, "store.md no longer says what a backend implements"
    named = set(re.findall(r"`(\w+)`", recipe.group(1)))
    members = _protocol_members(SqlDatabase)
    assert named == members, (f"store.md's SqlDatabase lacks {sorted(members - named)}, "
                              f"names {sorted(named - members)}")


# -- session 36: the tools the docs run ----------------------------------------------------

def test_every_tool_the_docs_run_exists_with_the_options_they_give_it():
    """docs/summary-eval.md showed the commands of ``tools/summary_fingerprint.py`` after it was
    folded into ``tools/summary_dump.py``, and docs/scaling.md ran ``tools/scale/lexprof.py
    … --bulk-build``, a flag the tool read nowhere. Every ``tools/…`` file the README and
    docs/ name exists, and every ``--option`` after it in the same command (inline code, or
    a code block's line with its ``\\`` continuations) is one its source spells."""
    checked = 0
    for doc, text in {"README.md": README, **DOCS}.items():
        joined = re.sub(r"\\\n\s*", " ", text)
        for m in re.finditer(r"(?<![\w/.-])(tools/[\w/.-]*\.\w+)((?:[ \t]+[^\s`]+)*)", joined):
            path, rest = m.group(1), m.group(2)
            assert (ROOT / path).is_file(), f"{doc}: {path}: no such file in the repository"
            source = (ROOT / path).read_text()
            spelt = set(re.findall(r"[\"'](--[\w-]+)[\"']", source))
            for word in rest.split():
                for flag in word.strip("[]().,;").split("=")[0].split("/"):
                    if flag.startswith("--"):
                        assert flag in spelt, f"{doc}: {path} {rest.strip()!r}: {path} has no {flag}"
            checked += 1
    assert checked > 100, checked
