"""What a new user types from the README and docs/ runs, and does what the text says.

test_docs_truth.py checks that every command and option the docs name exists; this file runs
them: every ```python block of README.md and docs/*.md, every row of the README's command
table (its required arguments filled in, in a temporary folder), the README's complete
command examples, and the HTTP service's shell block (keys, a real ``memlane serve`` on a free
loopback port, its curl calls, then the ``Client`` block against it). Real SQLite files, no
mocks, no network but loopback.

The embedder is ``hashing`` (``MEMLANE_EMBEDDING_BACKEND``, as a user may set it): the
default ``static`` table is derived from the bundled weights on first use, about a minute,
which is ``make``'s job, not the docs'. Nothing here needs an endpoint a user configures (an
OpenAI key, a chat model): blocks that would are none today; add them to SKIPPED_BLOCKS with
the reason if one is written.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

import memlane
from memlane import Memory
from memlane.backends.embed.static import cache_dir
from memlane.serve.cli import cli
from memlane.testing import cli_commands

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
DOCS = {p.name: p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}


def _python_blocks() -> list[tuple[str, int, str]]:
    """(page, line, code) of every ```python block."""
    found = []
    for page, text in {"README.md": README, **DOCS}.items():
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            found.append((page, text[:m.start()].count("\n") + 1, m.group(1)))
    return found


BLOCKS = _python_blocks()
CLIENT_BLOCK = "Client(\"http://127.0.0.1:8420\""
"""The README's remote block: it needs the service the shell block starts (run there)."""
SERVER_BLOCK = "server.run(\"stdio\")"
"""docs/mcp.md's block serves MCP on standard input: run in a process whose stdin is empty."""
SKIPPED_BLOCKS: dict[str, str] = {}
"""A fragment of a block's code -> why it is not run (an endpoint a user configures)."""


@pytest.fixture
def user(tmp_path, monkeypatch):
    """A new user's folder: nothing of this machine's memlane configuration or home but the
    derived embedding table's cache (``make`` derives it once; the offline summaries' sentence
    model reads it whatever the embedder, and deriving it again costs minutes)."""
    cache = str(cache_dir())
    for name in list(os.environ):
        if name.startswith("MEMLANE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    monkeypatch.setenv("MEMLANE_CACHE_DIR", cache)
    # The processes started here run this memlane, wherever the test was started from.
    source = str(Path(memlane.__file__).parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([source, *filter(None, [os.environ.get("PYTHONPATH")])]))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run_block(code: str, capsys) -> str:
    namespace: dict[str, object] = {"__name__": "__readme__"}
    opened = None
    if re.search(r"\bmem\b", code) and not re.search(r"^(with Memory\(|mem = )", code, re.M):
        # The block goes on with the first block's ``mem`` (its own database): open it.
        opened = namespace["mem"] = Memory("memlane.db")
    try:
        exec(compile(code, "<block>", "exec"), namespace)
    finally:
        if opened is not None:
            opened.close()
    return capsys.readouterr().out


def test_the_python_blocks_run_in_order(user, capsys):
    ran = []
    for page, line, code in BLOCKS:
        if CLIENT_BLOCK in code or SERVER_BLOCK in code:
            continue
        if any(fragment in code for fragment in SKIPPED_BLOCKS):
            continue
        try:
            out = _run_block(code, capsys)
        except Exception as e:  # the page and line a reader finds the block at
            raise AssertionError(f"{page}:{line}: the block raises {e!r}") from e
        ran.append((page, line, out))
    first = ran[0]
    assert first[0] == "README.md" and "Lisbon half marathon" in first[2], first
    assert len(ran) >= 4, ran


def test_the_mcp_page_block_serves_and_stops_at_the_end_of_its_input(user):
    (block,) = [code for _, _, code in BLOCKS if SERVER_BLOCK in code]
    done = subprocess.run([sys.executable, "-c", block], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


# --- the command table --------------------------------------------------------------------

NOT_RUN = {
    ("worker",): "runs until Ctrl-C (tests/serve/test_worker*.py run it)",
    ("serve",): "run below, as the HTTP service's shell block starts it",
    ("mcp",): "tests/serve/test_mcp.py runs the README's MCP lines",
}
"""Commands of the table not run here, and why; ``bench`` commands measure datasets a user
points ``--data`` at, or run for minutes."""

VALUES = {
    "TEXT": ["I moved to Porto last week"],
    "S": ["chat-42"],
    "FILE": ["chat.jsonl"],
    "QUERY": ["where do I live?"],
    "ID": ["1"],
    "N": ["2"],
    "SUBJECT": ["user"],
    "PREDICATE": ["lives_in"],
    "ENTITY": ["Lisbon"],
    "DB": ["memlane.db", "copy.db"],
}
"""A value for each placeholder of the table (in order, for one named twice)."""

EXPECT = {
    ("import",): "imported 1 message(s)",
    ("add",): "added to session",
    ("export",): '"text": "I moved to Lisbon"',
    ("index",): "indexed 1 session(s)",
    ("search",): "I moved to Lisbon",
    ("pack",): "I moved to Lisbon",
    ("packs", "show"): "pack 1",
    ("sessions", "show"): "I moved to Lisbon",
    ("facts", "list"): "lives_in",
    ("facts", "history"): "Lisbon",
    ("graph", "show"): "Lisbon",
    ("copy",): "copied",
    ("keys", "create"): "ml_",
    ("forget",): "erased scope 'chat-42'",
}

DESTRUCTIVE = [("facts", "forget"), ("keys", "revoke"), ("sessions", "forget"), ("forget",)]
"""Run last, in this order: each erases what the one before it names."""


def _rows() -> list[tuple[tuple[str, ...], str]]:
    """(command path, usage) of each row of the README's command table."""
    paths = {p for p, _ in cli_commands()}
    rows = []
    for line in README.splitlines():
        m = re.match(r"\| `(memlane [^`]+)` \|", line)
        if not m:
            continue
        usage = m.group(1).replace("\\|", "|")
        words = usage.split()[1:]
        path = tuple(words[:2]) if tuple(words[:2]) in paths else tuple(words[:1])
        assert path in paths, usage
        rows.append((path, usage))
    return rows


def _concrete(path: tuple[str, ...], usage: str) -> list[str]:
    """The row's command with its required arguments filled in: optional [..] parts left
    out (but --yes, so nothing waits for a prompt), the first of ( a | b )."""
    rest = usage.split(None, 1 + len(path))[1 + len(path):]
    text = rest[0] if rest else ""
    while re.search(r"\[[^\[\]]*\]", text):
        text = re.sub(r"\[(--yes)\]", r"\1", text)
        text = re.sub(r"\[[^\[\]]*\]", "", text)
    text = re.sub(r"\(([^()|]*?)\s*\|[^()]*\)", r"\1", text)
    used: dict[str, int] = {}
    args = []
    for word in shlex.split(text):
        if re.fullmatch(r"[A-Z]+", word):
            assert word in VALUES, f"memlane {' '.join(path)}: no value for {word}: add one to VALUES"
            args.append(VALUES[word][min(used.get(word, 0), len(VALUES[word]) - 1)])
            used[word] = used.get(word, 0) + 1
        else:
            args.append(word)
    return [*path, *args]


def _import_file(folder: Path) -> None:
    section = README.split("## Import format", 1)[1]
    line = re.search(r"```json\n(.*?)\n```", section, re.S).group(1)
    (folder / "chat.jsonl").write_text(line + "\n")


def test_every_row_of_the_command_table_runs_as_written(user):
    _import_file(user)
    runner = CliRunner()
    rows = [r for r in _rows() if r[0] not in NOT_RUN and r[0][0] != "bench"]
    # import first (the README's 2024 line; add's message now starts a session after it),
    # the erasing ones last, otherwise in table order
    rows.sort(key=lambda r: (r[0] != ("import",),
                             DESTRUCTIVE.index(r[0]) if r[0] in DESTRUCTIVE else -1))
    covered = {p for p, _ in rows} | set(NOT_RUN)
    for path, _ in cli_commands():
        assert path in covered or path[0] == "bench", f"the README's table has no row for {path}"
    for path, usage in rows:
        args = _concrete(path, usage)
        result = runner.invoke(cli, args, catch_exceptions=False)
        shown = f"memlane {shlex.join(args)} (README: {usage}) exit {result.exit_code}: {result.output}"
        assert result.exit_code == 0, shown
        assert "Traceback" not in result.output, shown
        assert not re.search(r"\bNone\b", result.output), shown  # Python's word for nothing
        if path in EXPECT:
            assert EXPECT[path] in result.output, shown


def test_the_readmes_complete_command_examples(user):
    """The examples of "Command line" that are whole commands: global options before or
    after the command alike, --json anywhere, export piped into import."""
    _import_file(user)
    runner = CliRunner()
    assert runner.invoke(cli, ["import", "chat.jsonl"]).exit_code == 0
    assert runner.invoke(cli, ["index", "--now", "2030-01-01T00:00:00Z"]).exit_code == 0
    shutil.copy("memlane.db", "x.db")
    before = runner.invoke(cli, shlex.split("--db x.db search q"))
    after = runner.invoke(cli, shlex.split("search q --db x.db"))
    assert "memlane --db x.db search q" in README and "memlane search q --db x.db" in README
    assert (before.exit_code, before.output) == (after.exit_code, after.output) == (0, before.output)
    assert "memlane --json stats" in README
    stats = runner.invoke(cli, ["--json", "stats"])
    assert stats.exit_code == 0 and '"messages": 1' in stats.output, stats.output
    pipe = re.search(r"`(memlane export) \\\| (memlane --db other\.db import -)`", README)
    assert pipe, "the README's export | import example"
    exported = runner.invoke(cli, shlex.split(pipe.group(1))[1:])
    imported = runner.invoke(cli, shlex.split(pipe.group(2))[1:], input=exported.output)
    assert imported.exit_code == 0 and "imported 1 message(s)" in imported.output, imported.output


# --- the HTTP service: its shell block, then the Client block ------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _shell_lines() -> list[str]:
    section = README.split("## HTTP service", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.skipif(shutil.which("curl") is None, reason="the README's HTTP examples are curl calls")
def test_the_http_service_block_and_the_client_block(user):
    port = _free_port()
    lines = [line.replace("8420", str(port)) for line in _shell_lines()]
    serve = [line for line in lines if line.startswith("memlane serve")]
    assert len(serve) == 1, lines
    before, after = lines[:lines.index(serve[0])], lines[lines.index(serve[0]) + 1:]
    memlane = f'memlane() {{ "{sys.executable}" -m memlane.serve.cli "$@"; }}\n'
    script = memlane + "\n".join(before) + '\necho "KEY=$KEY"\n'
    keyed = subprocess.run(["bash", "-ec", script], capture_output=True, text=True, timeout=120)
    assert keyed.returncode == 0, keyed.stderr
    key = re.search(r"^KEY=(ml_\S+)$", keyed.stdout, re.M).group(1)
    assert re.search(r"^created database /\S+/memlane\.db$", keyed.stderr, re.M), keyed.stderr  # and the key alone on stdout

    args = shlex.split(serve[0].split("#")[0])[1:]
    log = user / "serve.log"
    with log.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "memlane.serve.cli", *args, "--port", str(port)],
                                stdout=sink, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):  # bounded: up to 60 s for the service to come up
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        page = httpx.get(f"http://127.0.0.1:{port}/docs", timeout=10).text
        # /docs is FastAPI's Swagger UI page, whose script and styles come from a CDN: the
        # README said "OpenAPI at /docs" of a memlane that needs no network
        assert ("cdn.jsdelivr.net" in page) == ("`/docs`, a Swagger UI page your browser loads from a CDN" in README)
        rest = [line.replace("curl -sN", "curl -sN --max-time 3") for line in after]
        close = next(i for i, line in enumerate(rest) if "/v1/sessions/close" in line) + 1
        out = []
        for part in (rest[:close], rest[close:]):  # as a user types them, KEY exported
            script = memlane + "\n".join(f"{line}\nprintf '\\nexit %s\\n' $?" for line in part)
            done = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                                  timeout=120, env={**os.environ, "KEY": key})
            codes = re.findall(r"^exit (\d+)$", done.stdout, re.M)
            assert len(codes) == len(part) and set(codes) <= {"0", "28"}, (part, done)  # 28: --max-time
            out.append(done.stdout)
            for _ in range(200):  # the worker indexes the closed session within its 5 s poll
                r = httpx.get(f"http://127.0.0.1:{port}/v1/sessions?scope=chat-42",
                              headers={"Authorization": f"Bearer {key}"}, timeout=10)
                if r.json()["sessions"][0]["indexed"]:
                    break
                time.sleep(0.1)
        text = "\n".join(out)
        assert '"session_id":1' in text
        assert '"closed":[1]' in text
        assert '"ok":true' in text and '"text":"I signed up for the Lisbon half marathon"' in text
        assert "event: snapshot" in text
        assert 'memlane_http_requests_total{method="POST",route="/v1/messages",status="200"} 1.0' in text
        assert '"error"' not in text, text

        (client,) = [code for _, _, code in BLOCKS if CLIENT_BLOCK in code]
        client = client.replace("8420", str(port))
        done = subprocess.run([sys.executable, "-c", client], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "KEY": key})
        assert done.returncode == 0, done.stderr
        assert "Lisbon half marathon" in done.stdout
    finally:
        proc.send_signal(signal.SIGTERM)  # SIGTERM: in-flight requests end, exit status 0
        code = proc.wait(timeout=60)
    assert code == 0, log.read_text()
    assert "Traceback" not in log.read_text()


# --- the pages render as written, and `make demo` -----------------------------------------


def test_every_code_fence_of_the_docs_is_closed():
    """docs/summary-eval.md lost an opening ``` in session 15: its next 1,900 lines of prose,
    tables and headings rendered as one code block."""
    for page, text in {"README.md": README, **DOCS}.items():
        fences = [i + 1 for i, line in enumerate(text.splitlines()) if line.startswith("```")]
        assert len(fences) % 2 == 0, f"{page}: an unpaired ``` among lines {fences}"
        for opening, closing in zip(fences[::2], fences[1::2]):
            lines = text.splitlines()
            assert lines[closing - 1] == "```", f"{page}:{closing}: a fence opens where {opening}'s should close"


def test_make_demo_reads_well(user, monkeypatch):
    """`make demo` runs ``python -m memlane.demo``: every step shown as the command a user can
    paste, no traceback or warning, the README's steps (import, index, search, pack) all there;
    with the embedding table already derived it does not say it derived it."""
    monkeypatch.delenv("MEMLANE_EMBEDDING_BACKEND")  # the demo's embedder is the default
    monkeypatch.setenv("TMPDIR", str(user))  # its database folder, left for the user to explore
    done = subprocess.run([sys.executable, "-W", "error", "-m", "memlane.demo"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"created database \S+/demo\.db\n", done.stderr), done.stderr
    steps = re.findall(r"^\$ memlane --db \S+ (\w+)", done.stdout, re.M)
    assert steps[:2] == ["import", "import"] and {"index", "search", "pack", "stats"} <= set(steps), steps
    assert "make demo" in README and "import the example conversations, index, search, pack" in README
    assert "embedding table" not in done.stdout  # cached: nothing derived, nothing to explain
    assert not re.search(r"\bNone\b|Traceback|Warning", done.stdout), done.stdout


def test_the_store_layout_names_every_module_and_only_real_ones():
    """docs/store.md's layout lacked copy.py, filters.py, migrations.py, vector_index.py and
    the backends' rows.py and reads.py, and called changes.py SQLite's alone."""
    section = DOCS["store.md"].split("## Layout", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    named = set(re.findall(r"([a-z_]+\.py)\b", block))
    store = ROOT / "src" / "memlane" / "store"
    modules = {p.name for p in store.rglob("*.py") if p.name != "__init__.py"}
    assert modules - named == set(), f"docs/store.md's layout lacks {sorted(modules - named)}"
    assert named - modules == set(), f"docs/store.md's layout names {sorted(named - modules)}"
    for folder in re.findall(r"(store/[a-z]+/)", block):
        assert (store.parent / folder).is_dir(), folder


def test_every_toml_block_of_the_docs_is_a_config_file_memlane_loads(tmp_path):
    from memlane.config import load_config

    blocks = [(page, m.group(1)) for page, text in {"README.md": README, **DOCS}.items()
              for m in re.finditer(r"^```toml\n(.*?)^```", text, re.S | re.M)]
    assert len(blocks) >= 2, blocks
    for i, (page, block) in enumerate(blocks):
        path = tmp_path / f"{i}.toml"
        path.write_text(block)
        load_config(path, environ={})  # raises ConfigError naming the key that is not right
