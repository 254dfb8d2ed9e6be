"""``memlane bench``: run the retrieval benchmarks from the command line.

    memlane bench longmemeval --data longmemeval_s_dev.json.xz [--limit N] [--types T,...]
                              [--out DIR] [--baseline bm25|dense ...] [--embedder NAME]
    memlane bench locomo --data locomo_dev.json [--limit N] [--out DIR] [--baseline ...]
    memlane bench compare A B [--data FILE] [--metric M ...] [--list] [--json]

Each run writes its rankings files, report.json, report.md and plots into ``--out``
(default ``bench-out/<dataset>-<timestamp>``) and prints the headline to stdout. Every
option is checked before the data file is read, and the data file before anything runs.
``--out`` must be new or empty (or, with ``--resume``, hold the same run cut short): each
finished question is appended to its ``progress.jsonl`` (``memlane.bench.progress``); the
report's files are written in a hidden folder beside it, then moved into it with
report.json last, so a run cut short leaves no ``--out`` that looks finished.
"""

from __future__ import annotations

import os
import shutil
import time
from typing import TYPE_CHECKING, Any
from pathlib import Path

import click

from memlane.bench.baselines import BASELINES
from memlane.bench.metrics import metric_names
from memlane.bench.memrun import peak_rss_mb
from memlane.bench.summaries import run as summary_sets
from memlane.errors import MemlaneError, ValidationError
from memlane.serve.cli_common import FileName, Int, ignores_global, root_config_path

if TYPE_CHECKING:
    from memlane.bench.progress import Journal
    from memlane.bench.qa import QARecorder

__all__ = ["bench"]


def _out_dir(out: str | None, dataset: str) -> Path:
    if out:
        return Path(out)
    return Path("bench-out") / f"{dataset}-{time.strftime('%Y%m%d-%H%M%S')}"


def _fresh_out(out: str | None, dataset: str) -> Path:
    """The ``--out`` directory, refused (before the run) when it holds files already: one
    run's files are never mixed with another's (an earlier run's baseline rankings beside
    this run's report)."""
    path = _out_dir(out, dataset)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        what = "is not a directory" if not path.is_dir() else "already holds files"
        raise click.BadParameter(f"{path} {what}; give a new or empty directory",
                                 param_hint="--out")
    _makeable(path, "--out")  # the run's files are written beside it, then moved
    return path


def _makeable(path: Path, hint: str) -> None:
    """Refuse, before the work, an output path that cannot be made (inside a file, in a
    folder one cannot write in): found after the run, or the training, before."""
    above = path.absolute().parent
    while not above.exists():
        above = above.parent
    if not above.is_dir() or not os.access(above, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{path} cannot be made: {above} is not a folder one can "
                                 "write in", param_hint=hint)


def _write_out(out_dir: Path, write: Any) -> dict[str, Any]:
    """Call ``write(folder)`` on a hidden folder beside ``out_dir``, then give it
    ``out_dir``'s name, or, when ``out_dir`` holds the run's ``progress.jsonl``, move the
    files into it with ``report.json`` last: an interrupted or failed write leaves no
    ``out_dir`` that looks finished (its rankings without a report, or a report without
    its rankings)."""
    from memlane.bench.progress import JOURNAL

    target = out_dir.absolute()  # "--out ." has a name and a parent too
    stage = target.parent / f".{target.name}.partial-{os.getpid()}"
    kept = False
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        summary: dict[str, Any] = write(stage)
        if target.is_dir() and not any(target.iterdir()):
            target.rmdir()
        if (target / JOURNAL).is_file():  # the run's own folder: its files join the journal
            for name in sorted(os.listdir(stage), key=lambda n: n == "report.json"):
                os.replace(stage / name, target / name)
            stage.rmdir()
            kept = True
        elif target.exists():  # made by someone else during the run
            kept = True
            raise click.ClickException(f"{out_dir} was made during the run; the run's files "
                                       f"are in {stage}")
        else:
            stage.rename(target)
            kept = True
    finally:
        if not kept:
            shutil.rmtree(stage, ignore_errors=True)
    return summary


def _resume_out(out: str | None) -> Path:
    """``--out`` of ``--resume``: given, and a folder (or not there yet: the run starts)."""
    if not out:
        raise click.UsageError("--resume needs --out: the folder of the run to go on with")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise click.BadParameter(f"{path} is not a directory", param_hint="--out")
    _makeable(path, "--out")
    return path


def _open_journal(out_dir: Path, benchmark: str, data: Path, options: dict[str, Any],
                  config: object | None, key: str, resume: bool) -> Journal | None:
    """The run's ``progress.jsonl`` (see ``memlane.bench.progress``), checked against this
    command before the data file is read; None when the data file cannot be opened (its
    loader says why)."""
    from memlane.bench.progress import Journal, run_header
    from memlane.config import load_config

    try:
        header = run_header(benchmark, data, options, config or load_config(root_config_path()))
    except OSError:
        return None
    journal = Journal.open(out_dir, header, key, resume)
    if journal.torn:
        click.echo(f"{journal.path}: its last line was cut short ({journal.torn} bytes), "
                   "dropped: that unit runs again", err=True)
    if resume:
        click.echo(f"resuming {out_dir}: {len(journal.done)} finished before", err=True)
    return journal


def _interrupted(journal: Journal | None, unit: str, total: int) -> str:
    """What an interrupted or failed run kept, said in its message."""
    if journal is None or not journal.kept:
        return ""
    return (f" ({journal.kept} of {total} {unit} finished are kept in {journal.path}: run "
            "the same command with --resume to go on)")


def _embedder(name: str | None):  # type: ignore[no-untyped-def]
    from memlane.bench.memrun import make_embedder

    try:
        return make_embedder(name)
    except ImportError as exc:
        raise click.ClickException(f"memlane.backends.embed is not available: {exc}") from exc
    except (MemlaneError, ValueError, KeyError) as exc:
        raise click.ClickException(f"embedder {name!r}: {exc}") from exc


def _echo_headline(summary: dict, out: Path) -> None:  # type: ignore[type-arg]
    head = summary["headline"]
    values = ", ".join(
        f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
        for k, v in head.items()
        if k != "metric"
    )
    click.echo(f"headline: {head['metric']}: {values}")
    click.echo(
        f"{summary['n_evaluated']}/{summary['n_questions']} questions scored in "
        f"{summary['wall_seconds']} s; report: {out / 'report.md'}"
    )


baseline_option = click.option(
    "--baseline",
    "baselines",
    multiple=True,
    type=click.Choice(BASELINES),
    help="Also run a baseline on the same data (repeatable).",
)
preset_option = click.option(
    "--preset",
    "presets",
    multiple=True,
    help="Also search with this retrieval preset on the same databases, reported as "
    "memlane:<preset> (repeatable; see memlane.retrieve.presets).",
)
set_option = click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="SECTION.KEY=VALUE",
    help="Override a config key for memlane's run, e.g. retrieval.turns_per_session=3 "
    "(repeatable).",
)


def scratch_db(db: str, hint: str = "--db") -> None:
    """Refuse, before a run, a ``--db`` that is not a PostgreSQL URL (a file path was a
    SQLite file in the working folder, written to and reported as PostgreSQL) or that does
    not answer (found minutes into the run before)."""
    from memlane.errors import ConfigError
    from memlane.store import open_store, parse_db_url

    try:
        postgres = parse_db_url(db).is_postgres
    except ConfigError:
        postgres = False
    if not postgres:
        raise click.BadParameter("a PostgreSQL URL, an empty scratch database (SQLite runs "
                                 "use a temporary file each)", param_hint=hint)
    try:
        open_store(db).close()
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc


def _bench_config(settings: tuple[str, ...], presets: tuple[str, ...],
                  db: str | None = None) -> object | None:
    """The Config with ``--set`` overrides (and ``--db``) applied (None: the default loading),
    presets checked."""
    from memlane.config import load_config
    from memlane.retrieve.presets import PRESETS

    unknown = [p for p in presets if p != "default" and p not in PRESETS]
    if unknown:
        raise click.BadParameter(f"unknown preset(s) {unknown}; use default or one of "
                                 f"{', '.join(sorted(PRESETS))}", param_hint="--preset")
    path = root_config_path()
    if not settings and not db and path is None:
        return None
    if db:
        scratch_db(db)
    overrides: dict[str, Any] = {"db": db} if db else {}
    for entry in settings:
        key, eq, value = entry.partition("=")
        section, dot, name = key.strip().partition(".")
        if not eq or not dot or not section or not name:
            raise click.BadParameter(f"expected SECTION.KEY=VALUE, got {entry!r}", param_hint="--set")
        overrides.setdefault(section, {})[name] = value.strip()
    try:
        return load_config(path, overrides=overrides)
    except MemlaneError as exc:
        raise click.BadParameter(str(exc), param_hint="--set" if settings else "--config") from exc


def _check_questions(data: Path, questions: list[tuple[str, str]], config: object | None) -> None:
    """Every question as memlane's search takes it (``check_query``: not blank, at most
    ``retrieval.max_query_chars``, no lone surrogate), before the run: one over the limit
    stopped a run after the questions before it, naming neither the file nor the question."""
    from memlane.config import load_config
    from memlane.ingest.params import check_query

    cfg = config or load_config(root_config_path())
    for where, text in questions:
        try:
            check_query(text, "question", cfg)
        except MemlaneError as exc:
            raise click.ClickException(f"{data}: {where}: {exc}") from None


def _qa_recorder(answer: str | None, judge: str | None, budget: int) -> QARecorder | None:
    """The answer/judge recorder for the configured services, or None when not asked."""
    if judge and not answer:
        raise click.UsageError("--judge needs --answer")
    if not answer:
        return None
    from memlane.backends.llm.openai import OpenAIChat
    from memlane.bench.qa import QARecorder
    from memlane.config import load_config

    try:
        config = load_config(root_config_path())
        answer_llm = OpenAIChat.from_config(config.llm_service(answer))
        judge_llm = OpenAIChat.from_config(config.llm_service(judge)) if judge else None
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc
    return QARecorder(answer_llm, judge_llm, budget)


warm_option = click.option(
    "--warm", is_flag=True,
    help="After indexing each database, compute the meaning tier's transformer vectors of "
    "every session, as the index worker does with the tier on: its queries are then warm "
    "(the time is reported as warm_seconds).")
vectors_option = click.option(
    "--vectors", "vectors", default=None, type=FileName(dir_okay=False, exists=True, path_type=Path),
    help="Transformer vectors computed earlier (an .npz of text hashes and vectors, "
    "tools/meaning_vectors.py): the meaning tier takes a text's vector from it instead of "
    "computing it again.")


def _seed_vectors(vectors: Path | None, config: object | None) -> None:
    """Give the meaning tier the vectors of ``--vectors``."""
    if vectors is None:
        return
    from memlane.config import load_config
    from memlane.retrieve.meaning import load_vectors, shared_tier

    r = (config or load_config(root_config_path())).retrieval  # type: ignore[attr-defined]
    try:
        seed = load_vectors(vectors)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--vectors") from exc
    shared_tier(r.meaning_max_tokens, r.meaning_window).seed = seed


db_option = click.option(
    "--db", default=None, metavar="URL",
    help="Run memlane on this PostgreSQL database (an empty scratch one; each question gets "
    "its own scope) instead of a temporary SQLite file per question.",
)


resume_option = click.option(
    "--resume", is_flag=True,
    help="Go on with the run in --out (interrupted: its progress.jsonl holds what it "
    "finished), skipping what is done; the same data file, options and configuration, or "
    "it is refused naming what differs.")


@click.group()
def bench() -> None:
    """Benchmarks: retrieval (LongMemEval, LoCoMo) with baselines, the engine (ingest), the service (serve), summaries."""


@bench.command("longmemeval")
@click.option(
    "--data",
    required=True,
    type=FileName(dir_okay=False, path_type=Path),
    help="LongMemEval file: .json, .json.gz or .json.xz (S, M or oracle).",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions."
)
@click.option("--types", default=None, help="Comma-separated question types to keep.")
@click.option(
    "--out", default=None, help="Output directory, new or empty (default bench-out/longmemeval-<time>)."
)
@baseline_option
@click.option(
    "--embedder",
    "embedder_name",
    default=None,
    help="Embedder backend: static (default), minilm or hashing.",
)
@click.option(
    "--now",
    "now_mode",
    type=click.Choice(["question", "latest"]),
    default="question",
    show_default=True,
    help="index/search 'now': the question date, or no earlier than the last session "
    "(some upstream evidence sessions are dated after their question).",
)
@click.option("--answer", "answer_service", default=None, metavar="SERVICE",
              help="Answer each question from memlane's pack with the [llm.services.SERVICE] model.")
@click.option("--judge", "judge_service", default=None, metavar="SERVICE",
              help="Grade the answers with the [llm.services.SERVICE] model (needs --answer).")
@click.option("--budget", "pack_budget", default=2000, show_default=True, type=Int.of("pack", "budget"),
              help="Token budget of the pack read by --answer.")
@preset_option
@set_option
@db_option
@warm_option
@vectors_option
@resume_option
def longmemeval_cmd(
    data: Path,
    limit: int | None,
    types: str | None,
    out: str | None,
    baselines: tuple[str, ...],
    embedder_name: str | None,
    now_mode: str,
    answer_service: str | None,
    judge_service: str | None,
    pack_budget: int,
    presets: tuple[str, ...],
    settings: tuple[str, ...],
    db: str | None,
    warm: bool,
    vectors: Path | None,
    resume: bool,
) -> None:
    """Session- and turn-level retrieval on LongMemEval (and, optionally, answer quality)."""
    config = _bench_config(settings, presets, db)  # every option before the data file
    embedder = _embedder(embedder_name)
    out_dir = _resume_out(out) if resume else _fresh_out(out, "longmemeval")
    qa = _qa_recorder(answer_service, judge_service, pack_budget)
    _seed_vectors(vectors, config)
    options = {"--limit": limit, "--types": types, "--baseline": list(baselines),
               "--embedder": embedder.name, "--now": now_mode, "--answer": answer_service,
               "--judge": judge_service, "--budget": pack_budget, "--preset": list(presets),
               "--set": list(settings), "--db": _db_kind(db), "--warm": warm,
               "--vectors": _vectors_sha(vectors)}
    journal = _open_journal(out_dir, "longmemeval", data, options, config, "question_id",
                            resume)
    finished = False
    try:
        _run_longmemeval(data, types, limit, journal, out_dir, settings, qa, embedder,
                         baselines, now_mode, presets, config, warm)
        finished = True
    finally:
        if journal is not None:
            journal.close(discard_empty=not finished)


def _run_longmemeval(data: Path, types: str | None, limit: int | None, journal: Journal | None,
                     out_dir: Path, settings: tuple[str, ...], qa: QARecorder | None,
                     embedder: Any, baselines: tuple[str, ...], now_mode: str,
                     presets: tuple[str, ...], config: object | None, warm: bool) -> None:
    from memlane.bench.datasets import DatasetError, load_longmemeval
    from memlane.bench.longmemeval import run_longmemeval, select_questions
    from memlane.bench.report import write_lme_report

    try:
        questions = load_longmemeval(data)
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from exc
    assert journal is not None  # the file opened, and read
    rss_loaded = peak_rss_mb()
    wanted = [t.strip() for t in types.split(",") if t.strip()] if types else None
    if wanted:
        known = sorted({q.question_type for q in questions})
        unknown = [t for t in wanted if t not in known]
        if unknown:
            raise click.UsageError(
                f"--types: unknown type(s) {', '.join(unknown)}; the file has {', '.join(known)}"
            )
    selected = select_questions(questions, wanted, limit)
    if not selected:
        raise click.ClickException(f"{data}: no questions to run")
    _check_questions(data, [(f"question_id {q.question_id}", q.question) for q in selected],
                     config)

    def write(folder: Path) -> dict[str, Any]:
        summary = write_lme_report(run, folder, data, rss_after_load_mb=rss_loaded,
                                   settings=settings, qa=qa.summary() if qa else None,
                                   data_sha256=journal.data_sha256)
        if qa is not None:
            qa.write(folder)
        return summary

    try:
        run = run_longmemeval(
            selected, embedder=embedder, baselines=baselines, progress=True, now_mode=now_mode,
            qa=qa, presets=presets, config=config, warm=warm, done=journal.done,
            on_done=journal.append,
        )
        summary = _write_out(out_dir, write)
    except KeyboardInterrupt:
        raise click.ClickException("interrupted" + _interrupted(journal, "questions",
                                                                len(selected))) from None
    except MemlaneError as exc:
        kept = ""
        if qa is not None and qa.rows:  # hours of answers are not lost with the run
            try:
                out_dir.mkdir(parents=True, exist_ok=True)
                qa.write(out_dir)
                kept = f" (the {len(qa.rows)} questions so far are in {out_dir / 'answers.jsonl'})"
            except OSError:
                pass
        kept += _interrupted(journal, "questions", len(selected))
        raise click.ClickException(f"{exc}{kept}") from exc  # memlane's errors name what is wrong
    except OSError as exc:
        raise click.ClickException(f"cannot write {out_dir}: {exc}") from exc
    _echo_headline(summary, out_dir)


def _db_kind(db: str | None) -> str:
    """``--db`` as a run's option: where it ran (the scratch URL may change, and holds a
    password)."""
    return "postgresql" if db else "sqlite"


def _vectors_sha(vectors: Path | None) -> str | None:
    from memlane.bench.progress import file_sha256

    return file_sha256(vectors) if vectors is not None else None


@bench.command("locomo")
@click.option(
    "--data",
    required=True,
    type=FileName(dir_okay=False, path_type=Path),
    help="LoCoMo file: .json, .json.gz or .json.xz.",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Only the first N conversations."
)
@click.option("--out", default=None, help="Output directory, new or empty (default bench-out/locomo-<time>).")
@baseline_option
@click.option(
    "--embedder",
    "embedder_name",
    default=None,
    help="Embedder backend: static (default), minilm or hashing.",
)
@preset_option
@set_option
@db_option
@click.option("--roles", type=click.Choice(["user", "user/assistant"]), default="user",
              show_default=True,
              help="Roles of the two speakers: both user (they are two people), or the first "
              "user and the second assistant.")
@warm_option
@vectors_option
@resume_option
def locomo_cmd(
    data: Path,
    limit: int | None,
    out: str | None,
    baselines: tuple[str, ...],
    embedder_name: str | None,
    presets: tuple[str, ...],
    settings: tuple[str, ...],
    roles: str,
    db: str | None,
    warm: bool,
    vectors: Path | None,
    resume: bool,
) -> None:
    """Evidence-turn retrieval on LoCoMo (category 5 reported apart)."""
    config = _bench_config(settings, presets, db)  # every option before the data file
    embedder = _embedder(embedder_name)
    out_dir = _resume_out(out) if resume else _fresh_out(out, "locomo")
    _seed_vectors(vectors, config)
    options = {"--limit": limit, "--baseline": list(baselines), "--embedder": embedder.name,
               "--preset": list(presets), "--set": list(settings), "--db": _db_kind(db),
               "--roles": roles, "--warm": warm, "--vectors": _vectors_sha(vectors)}
    journal = _open_journal(out_dir, "locomo", data, options, config, "sample_id", resume)
    finished = False
    try:
        _run_locomo(data, limit, journal, out_dir, settings, embedder, baselines, presets,
                    config, roles, warm)
        finished = True
    finally:
        if journal is not None:
            journal.close(discard_empty=not finished)


def _run_locomo(data: Path, limit: int | None, journal: Journal | None, out_dir: Path,
                settings: tuple[str, ...], embedder: Any, baselines: tuple[str, ...],
                presets: tuple[str, ...], config: object | None, roles: str,
                warm: bool) -> None:
    from memlane.bench.datasets import DatasetError, load_locomo
    from memlane.bench.locomo import run_locomo
    from memlane.bench.report import write_locomo_report

    try:
        conversations = load_locomo(data)
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from exc
    assert journal is not None  # the file opened, and read
    rss_loaded = peak_rss_mb()
    selected = conversations[:limit] if limit is not None else conversations
    if not selected:
        raise click.ClickException(f"{data}: no conversations to run")
    _check_questions(data, [(f"qa_id {qa.qa_id}", qa.question) for c in selected for qa in c.qa],
                     config)
    try:
        run = run_locomo(selected, embedder=embedder, baselines=baselines, progress=True,
                         presets=presets, config=config, roles=roles, warm=warm,
                         done=journal.done, on_done=journal.append)
        summary = _write_out(out_dir, lambda folder: write_locomo_report(
            run, folder, data, rss_after_load_mb=rss_loaded, settings=settings,
            data_sha256=journal.data_sha256))
    except KeyboardInterrupt:
        raise click.ClickException("interrupted" + _interrupted(journal, "conversations",
                                                                len(selected))) from None
    except MemlaneError as exc:  # memlane's errors name what is wrong
        raise click.ClickException(f"{exc}{_interrupted(journal, 'conversations', len(selected))}"
                                   ) from exc
    except OSError as exc:
        raise click.ClickException(f"cannot write {out_dir}: {exc}") from exc
    _echo_headline(summary, out_dir)


@ignores_global(db="reads two finished runs and opens no database")
@bench.command("compare")
@click.argument("run_a", metavar="A", type=FileName(exists=True, path_type=Path))
@click.argument("run_b", metavar="B", type=FileName(exists=True, path_type=Path))
@click.option("--data", type=FileName(dir_okay=False, exists=True, path_type=Path), default=None,
              help="The data file both runs ran on [default: the one their report.json names].")
@click.option("--metric", "metrics", multiple=True, type=click.Choice(metric_names()),
              help="Only this metric (repeatable) [default: every metric].")
@click.option("--list", "listed", is_flag=True,
              help="Also name the questions gained and lost (their ids).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def compare_cmd(run_a: Path, run_b: Path, data: Path | None, metrics: tuple[str, ...],
                listed: bool, as_json: bool) -> None:
    """Compare two runs of one data file (A, B: --out folders or rankings files): each
    metric A -> B overall and per question type or category, with the questions gained and
    lost."""
    import json as _json

    from memlane.bench.compare import compare_runs, render

    try:
        result = compare_runs(run_a, run_b, data, metrics, listed)
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(_json.dumps(result, indent=2) if as_json else render(result, listed), nl=as_json)


@ignores_global(db="scores labelled conversations and opens no database")
@bench.command("summaries")
@click.option("--backend", type=click.Choice(["offline", "llm"]), default="offline",
              show_default=True, help="The intelligence backend to score.")
@click.option("--service", default=None, metavar="NAME",
              help="With --backend llm: the [llm.services.NAME] model to ask. Without it, a "
              "scripted model on a loopback server answers each conversation with its labels "
              "(measures the prompt, parsing and mapping, not a model).")
@click.option("--set", "sets", type=click.Choice([*summary_sets.POOL, *summary_sets.FRESH, "pool", "train",
                                                  "dev_all", "all"]),
              default="all", show_default=True,
              help="Which packaged labelled set to score (pool: dev to heldout4 as one set; "
              "train: train1-train5, written to train the sentence model, as one set; "
              "heldout5 to heldout54: the untouched sets of sessions 9 to 58, one a session but "
              "two in session 12 (heldout8 and heldout9) and none in session 33, each "
              "development data since the session after its own; "
              "dev_all: pool, train, heldout5 and heldout6, all "
              "development data since session 11, as one set; all: dev to heldout4 each apart).")
@click.option("--labels", type=FileName(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Score this labelled JSON file (same format) instead.")
@click.option("--against", type=FileName(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Instead of a backend: score this second labelling of the "
              "same conversations (same format, same ids and turns) against the reference "
              "(--labels REF or --set NAME), each of its summaries as if a backend wrote it: "
              "how far two labellers agree under the matching rule.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--show-misses", is_flag=True,
              help="Also list every missed, extra and wrongly owned item.")
@click.option("--speed", is_flag=True,
              help="Instead of scoring: time offline summarization over the distinct sessions "
              "of the LongMemEval file given by --data.")
@click.option("--data", type=FileName(dir_okay=False, path_type=Path), default=None,
              help="With --speed: a LongMemEval file (.json, .json.gz, .json.xz).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="With --speed: only the first N distinct sessions.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="With --speed: also time the same sessions summarized in N processes, as "
              "the worker does with indexing.jobs = N (wall-clock sessions per second "
              "beside the one process's sessions per CPU second).")
@click.option("--train", is_flag=True,
              help="Instead of scoring: train a sentence model for the offline backend (needs "
              "the 'train' extra: scikit-learn), print its cross-validated scores beside the "
              "patterns' and write the weights to --out. --kind dense (the default): the "
              "dense model on the development sets (dense.SETS, or --train-sets), "
              "each way of using it scored on each set apart; --kind linear: session 7's hashed-word "
              "classifier on the pool.")
@click.option("--kind", type=click.Choice(["dense", "linear"]), default="dense",
              show_default=True, help="With --train: which sentence model to train.")
@click.option("--hidden", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --train --kind dense: hidden units of the network (0: a logistic "
              "regression).")
@click.option("--c", "inverse_c", type=click.FloatRange(min=0, min_open=True), default=None,
              help="With --train --kind dense: the logistic regression's inverse "
              "regularisation [default: dense.FIT's, 0.003 since session 35].")
@click.option("--structure", type=click.Choice(["cheap", "full"]), default="cheap",
              show_default=True, help="With --train --kind dense: the structural features "
              "(full: also every cue pattern's hit, about twice the model's cost).")
@click.option("--neighbour", type=click.IntRange(min=-1), default=0, show_default=True,
              help="With --train --kind dense: characters of a neighbouring turn's text "
              "embedded (0: none; -1: its first three sentences whole, session 9).")
@click.option("--max-sentences", type=click.IntRange(min=1), default=3, show_default=True,
              help="With --train --kind dense: sentences of a turn past which the model "
              "reads none of it (session 9: 8).")
@click.option("--reach", type=click.IntRange(min=0), default=None,
              help="With --train --kind dense: also a neighbouring turn's non-answer (\"not "
              "sure\", \"let's see\") in its first N sentences and its bare \"Done.\" (0: none) "
              "[default: 0; session 15 tried 1-3].")
@click.option("--placement", is_flag=True,
              help="With --train --kind dense: also the features of where a sentence stands "
              "to the patterns' placements.")
@click.option("--vectors", type=click.Choice(["static", "meaning", "both"]), default="static",
              show_default=True, help="With --train --kind dense: the sentence vectors (meaning: "
              "the meaning tier's transformer, all-MiniLM-L6-v2 int8, needs the 'meaning' extra; "
              "both: the static and the meaning vectors side by side).")
@click.option("--train-sets", "train_sets", default=None, metavar="NAMES",
              help="With --train --kind dense: the packaged sets to train and cross-validate "
              "on, comma-separated (pool, train, dev_all, dev … heldout4, train1 … train5, "
              "heldout5 … heldout54), each scored apart as a part [default: the shipped "
              "model's, memlane.bench.summaries.dense.SETS].")
@click.option("--folds", type=click.IntRange(min=2), default=5, show_default=True,
              help="With --train: leave-conversations-out folds for the cross-validation.")
@click.option("--out", type=FileName(dir_okay=False, path_type=Path),
              default=None, help="With --train: where to write the weights "
              "[default: sentmodel.npz, or sentclass.json for --kind linear].")
@click.option("--model", "model_path", type=FileName(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Score the offline backend with this trained sentence "
              "model (weights written by --train: .npz dense, .json linear) joining the cue "
              "patterns.")
@click.option("--no-sentence-model", "patterns_only", is_flag=True,
              help="Score (or with --speed time) the offline backend's cue patterns alone, "
              "without the sentence model that ships in the package (summary.sentence_model "
              "= false).")
@click.option("--facts-model", "facts_model", is_flag=True,
              help="Score (or with --speed time) the offline backend with the learned facts "
              "reader joining its readers (summary.facts_model = true; off by default, as in "
              "the product, unless the configuration turns it on).")
@click.pass_context
def summaries_cmd(ctx: click.Context, backend: str, service: str | None, sets: str,
                  labels: Path | None, against: Path | None,
                  as_json: bool, show_misses: bool, speed: bool, data: Path | None,
                  limit: int | None, jobs: int, train: bool, kind: str, hidden: int,
                  inverse_c: float | None, structure: str, neighbour: int, max_sentences: int,
                  reach: int | None, placement: bool, vectors: str, train_sets: str | None,
                  folds: int, out: Path | None, model_path: Path | None,
                  patterns_only: bool, facts_model: bool) -> None:
    """Score session summaries per field against the labelled conversation set."""
    import json as _json

    from memlane.bench.summaries import run as evalrun

    if against is not None:
        _against_alone(ctx, labels)
    if facts_model and patterns_only:
        raise click.UsageError("--facts-model needs the sentence model: it cannot be given "
                               "with --no-sentence-model")
    if train_sets is not None and (not train or kind != "dense"):
        raise click.UsageError("--train-sets needs --train --kind dense")
    if train:
        names = _train_set_names(train_sets)
        _makeable(out or Path("sentclass.json"), "--out")
        if kind == "linear":
            _train_classifier(folds, out or Path("sentclass.json"), as_json, show_misses)
        else:
            _train_dense(folds, out or Path("sentmodel.npz"), as_json, hidden,
                         {"c": inverse_c, "cheap": structure == "cheap",
                          "neighbour": None if neighbour < 0 else neighbour,
                          "most": max_sentences, "placement": placement,
                          "reach": reach, "vectors": vectors}, names)
        return
    if speed:
        if data is None:
            raise click.UsageError("--speed needs --data LONGMEMEVAL_FILE")
        try:
            result = evalrun.session_speed(data, limit, _sentence_model(model_path, patterns_only),
                                           jobs, _facts_model(facts_model))
        except (MemlaneError, OSError) as exc:
            named = str(data) in str(exc)  # the dataset's errors name the file themselves
            raise click.ClickException(str(exc) if named else f"{data}: {exc}") from exc
        if as_json:
            click.echo(_json.dumps(result))
        else:
            click.echo(f"offline summarization: {result['sessions']} sessions "
                       f"({result['turns']} turns) in {result['seconds']} s: "
                       f"{result['sessions_per_s']} sessions/s, {result['turns_per_s']} turns/s "
                       f"(CPU {result['cpu_seconds']} s: {result['sessions_per_cpu_s']} "
                       "sessions per CPU second)")
            if jobs > 1:
                click.echo(f"{jobs} processes: {result['jobs_sessions_per_s']} sessions/s "
                           f"({result['jobs_seconds']} s, after {result['jobs_start_seconds']} s "
                           f"starting them; {result['jobs_sessions_per_s_with_start']} sessions/s "
                           f"with it; CPU {result['jobs_cpu_seconds']} s in all, "
                           f"{result['jobs_parent_cpu_seconds']} s of it sending and taking "
                           "back); answers "
                           + ("identical to one process's" if result["jobs_identical"]
                              else "DIFFER from one process's"))
        return
    if service and backend != "llm":
        raise click.UsageError("--service needs --backend llm")
    try:
        if labels is not None:
            chosen = [(labels.name, evalrun.load_set(path=labels))]
        else:
            names = list(evalrun.SETS) if sets == "all" else [sets]
            chosen = [(n, evalrun.load_set(n)) for n in names]
        if against is not None:
            reports = _score_against(chosen, against)
        elif patterns_only and model_path is not None:
            raise click.UsageError("--model and --no-sentence-model exclude each other")
        elif model_path is not None and backend != "offline":
            raise click.UsageError("--model needs --backend offline")
        else:
            model = _sentence_model(model_path, patterns_only)
            reports = evalrun.run_backend(backend, service, chosen, model=model,
                                          config_path=root_config_path(),
                                          facts_model=_facts_model(facts_model))
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc  # memlane's errors name what is wrong
    if as_json:
        click.echo(_json.dumps([r.to_dict(misses=show_misses) for r in reports], indent=2))
    else:
        click.echo(evalrun.render(reports, show_misses), nl=False)


_NOT_WITH_AGAINST = ("backend", "service", "model_path", "patterns_only", "facts_model", "speed",
                     "train")
"""The options that choose or time a backend: --against scores a labelling instead."""


def _against_alone(ctx: click.Context, labels: Path | None) -> None:
    """Refuse --against beside a backend's options, and without a reference chosen."""
    from click.core import ParameterSource

    for param in ctx.command.params:
        if param.name in _NOT_WITH_AGAINST and ctx.get_parameter_source(
                param.name) not in (ParameterSource.DEFAULT, None):
            flag = max(param.opts, key=len)
            raise click.UsageError(f"--against scores a second labelling, not a backend: "
                                   f"it cannot be given with {flag}")
    if labels is None and ctx.get_parameter_source("sets") in (ParameterSource.DEFAULT, None):
        raise click.UsageError("--against needs the reference labelling it is scored "
                               "against: --labels REF or --set NAME")


def _score_against(chosen: list[tuple[str, list[Any]]], against: Path) -> list[Any]:
    """The second labelling at ``against`` scored against the chosen sets; a file that does
    not label the same conversations with the same turns is a bad --against (exit 2)."""
    from memlane.bench.summaries import run as evalrun

    other = evalrun.load_set(path=against)  # its format's errors as --labels' (exit 1)
    try:
        return evalrun.score_labelling(chosen, other, label=against.name,
                                       other_name=str(against))
    except ValidationError as exc:  # not the same conversations, or not the same turns
        raise click.BadParameter(str(exc), param_hint="--against") from exc


def _facts_model(flag: bool) -> bool:
    """Whether the learned facts reader joins the offline backend scored or timed:
    ``--facts-model``, or the configuration's ``summary.facts_model``."""
    if flag:
        return True
    from memlane.config import load_config

    try:
        return load_config(root_config_path()).summary.facts_model
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc


def _sentence_model(model_path: Path | None, patterns_only: bool) -> Any:
    """The sentence model to score or time: a weights file, none, or the one the
    configuration's ``summary.sentence_model`` and ``summary.sentence_vectors`` choose (the
    offline backend's own, so a configured meaning model is what gets measured)."""
    if patterns_only:
        return None
    if model_path is None:
        from memlane.backends.registry import offline_intelligence
        from memlane.config import load_config

        try:
            return offline_intelligence(load_config(root_config_path())).model
        except MemlaneError as exc:
            raise click.ClickException(str(exc)) from exc
    from memlane.index.sentclass import load_model
    from memlane.index.sentmodel import load_dense

    try:
        return load_dense(model_path) if model_path.suffix == ".npz" else load_model(model_path)
    except (ValueError, KeyError, OSError) as exc:
        raise click.ClickException(f"{model_path}: not a sentence classifier: {exc}") from exc


def _train_classifier(folds: int, out: Path, as_json: bool, show_misses: bool) -> None:
    import json as _json

    from memlane.bench.summaries import run as evalrun
    from memlane.bench.summaries import train as training
    from memlane.index.offline import OfflineIntelligence

    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise click.ClickException("--train needs scikit-learn: pip install 'memlane[train]'") from exc
    pool = evalrun.load_set("pool")
    patterns = evalrun.evaluate(OfflineIntelligence(None).summarize, pool,
                                backend="offline, patterns only", set_name="pool")
    cv = training.cross_validate(pool, folds)
    model = training.fit(pool)
    try:
        path = training.write(model, out)
    except OSError as exc:
        raise click.ClickException(f"cannot write the weights: {exc}") from exc
    if as_json:
        click.echo(_json.dumps({"reports": [r.to_dict(misses=show_misses) for r in (patterns, cv)],
                                "weights": str(path), "meta": model.meta}, indent=2))
        return
    click.echo(evalrun.render([patterns, cv], show_misses), nl=False)
    click.echo(f"trained on {model.meta['sentences']} pool sentences {model.meta['labels']}; "
               f"{len(model.weights)} weight rows written to {path}")


def _train_set_names(given: str | None) -> tuple[str, ...]:
    """The sets ``--train-sets`` names (None: ``dense.SETS``); a name that is no packaged set,
    none at all, or a set named twice (alone or in a group: ``dev_all`` holds ``pool``) is a
    bad --train-sets (exit 2): a conversation trained on twice would weigh double."""
    from memlane.bench.summaries import dense
    from memlane.bench.summaries import run as evalrun

    if given is None:
        return dense.SETS
    groups = {"pool": evalrun.POOL, "train": evalrun.TRAIN, "dev_all": evalrun.DEV_ALL}
    known = (*groups, *evalrun.POOL, *evalrun.TRAIN, *evalrun.FRESH)
    names = tuple(name.strip() for name in given.split(","))
    seen: dict[str, str] = {}
    for name in names:
        if name not in known:
            raise click.BadParameter(
                f"{name!r} is no packaged set; give some of {', '.join(known)}, "
                "comma-separated", param_hint="--train-sets")
        for member in groups.get(name, (name,)):
            if member in seen:
                held = [g for g in (seen[member], name) if g != member]
                why = "" if not held else (f" ({held[0]} holds it)" if len(held) == 1 else
                                           f" ({held[0]} and {held[1]} both hold it)")
                raise click.BadParameter(f"{member} is named twice{why}; give each set once",
                                         param_hint="--train-sets")
            seen[member] = name
    return names


def _train_dense(folds: int, out: Path, as_json: bool, hidden: int,
                 inputs: dict[str, Any] | None = None,
                 names: tuple[str, ...] | None = None) -> None:
    import json as _json
    import warnings

    from memlane.bench.summaries import dense
    from memlane.bench.summaries import run as evalrun

    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise click.ClickException("--train needs scikit-learn: pip install 'memlane[train]'") from exc
    inputs = dict(inputs or {})
    c = inputs.pop("c", None)
    sets = {name: evalrun.load_set(name) for name in (names or dense.SETS)}
    convs = [conv for part in sets.values() for conv in part]
    try:
        data = dense.prepare(convs, cheap=inputs.get("cheap", dense.CHEAP),
                             neighbour=inputs.get("neighbour", dense.NEIGHBOUR),
                             most=inputs.get("most", dense.MOST),
                             placement=inputs.get("placement", False),
                             reach=dense.REACH if inputs.get("reach") is None else inputs["reach"],
                             vectors=inputs.get("vectors", "static"))
    except MemlaneError as exc:  # --vectors meaning without the meaning extra
        raise click.ClickException(f"--vectors {inputs.get('vectors')}: {exc}") from exc
    parts = {name: {conv.id for conv in part} for name, part in sets.items()}
    parts["all"] = {conv.id for conv in convs}
    args = dict(dense.FIT, **({"hidden": hidden, "alpha": 1.0} if hidden else {}))
    if c is not None:
        args["c"] = c
    with warnings.catch_warnings():  # a network that has not converged in max_iter: used as is
        warnings.simplefilter("ignore")
        results = dense.cross_validate(data, parts, folds, **args)
        chosen = dense.configured(dense.fit(data, **args), dense.CONFIGS[dense.CHOSEN])
    assert chosen is not None  # the chosen configuration uses the model
    model = chosen
    try:
        path = model.save(out)
    except OSError as exc:
        raise click.ClickException(f"cannot write the weights: {exc}") from exc
    fields = ("decisions", "open_questions", "next_steps", "rationale")
    if as_json:
        click.echo(_json.dumps({"cross_validation": {
            name: {part: {**{f: r.fields[f].to_dict() for f in fields},
                          "small_talk": len(r.small_talk), "repeats": len(r.repeats)}
                   for part, r in by.items()} for name, by in results.items()},
            "weights": str(path), "meta": model.meta}, indent=2))
        return
    click.echo(f"{folds}-fold leave-conversations-out cross-validation on {len(convs)} "
               f"conversations ({', '.join(f'{n} {len(p)}' for n, p in sets.items())}; "
               "decisions P / R / F1, other fields F1; small talk, sentences in two fields)")
    for part in parts:
        click.echo(f"\n{part}:")
        for name, by in results.items():
            r = by[part]
            d = r.fields["decisions"]
            click.echo(f"  {name:<36} {d.precision:.3f} / {d.recall:.3f} / {d.f1:.3f}  "
                       + "  ".join(f"{f} {r.fields[f].f1:.3f}" for f in fields[1:])
                       + f"  {len(r.small_talk)} {len(r.repeats)}")
    click.echo(f"\ntrained on {model.meta['sentences']} sentences {model.meta['labels']}; "
               f"weights written to {path}")


def _attach_commands() -> None:
    from memlane.bench.ingest import ingest_command
    from memlane.bench.serve import serve_command

    bench.add_command(ingest_command)
    bench.add_command(serve_command)


_attach_commands()


def main() -> None:  # pragma: no cover - `python -m memlane.bench.cli`
    bench()


if __name__ == "__main__":  # pragma: no cover
    main()
