"""CLI commands for facts, the entity graph, compaction and hygiene (mounted by
``memlane.serve.cli``'s command table)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import click

from memlane.clip import clip
from memlane.retrieve.explain import figure
from memlane.serve.cli_common import Int, json_option, less_before, memory_of, more_follow
from memlane.serve.cli_erase import VACUUM_HELP, vacuum_after
from memlane.serve.output import echo
from memlane.serve.render import dumps, fact_key, fact_sentence, item_dict, nothing_note

__all__ = ["compact", "facts", "gc", "graph"]


def _ts(value: float | datetime) -> str:
    dt = value if isinstance(value, datetime) else datetime.fromtimestamp(value, UTC)
    return dt.strftime("%Y-%m-%d %H:%M")



@click.group()
def facts() -> None:
    """List current facts, show a fact's history, forget a fact."""

@facts.command("list")
@click.option("--scope", default=None, help="Only this scope's facts (default: every scope).")
@click.option("--subject", default=None, help="Only facts about this subject (e.g. user).")
@click.option("--include-superseded", is_flag=True, help="Also show replaced values.")
@click.option("--now", default=None, help="Confidence as of this ISO-8601 time (default: now).")
@click.option("--limit", default=1000, show_default=True, type=Int.of("facts", "limit"),
              help="List at most this many facts.")
@click.option("--offset", default=0, show_default=True, type=Int.of("facts", "offset"),
              help="List from this position on (0 the first).")
@click.option("--cursor", default=None,
              help="List the facts after the one this cursor names (the one the hint of a "
                   "cut listing gives); not with --offset.")
@click.option("--before", default=None,
              help="List the facts just before the one this cursor names (a page back: the "
                   "one the hint of a later page gives); not with --cursor or --offset.")
@json_option
@click.pass_context
def facts_list(ctx: click.Context, scope: str | None, subject: str | None,
               include_superseded: bool, now: str | None, limit: int, offset: int,
               cursor: str | None, before: str | None, as_json: bool) -> None:
    """Facts with their confidence; current ones unless --include-superseded. When more
    follow than --limit, standard error gives the command that reads on (--offset, or
    --cursor, which facts added or removed meanwhile do not shift), and past the first
    page the one that reads back (--before)."""
    from memlane.serve.paging import fact_page

    mem = memory_of(ctx)
    page = fact_page(mem, scope, subject, include_superseded=include_superseded, now=now,
                     limit=limit, offset=offset, cursor=cursor, before=before)
    rows = page.rows
    given = {"--scope": scope, "--subject": subject,
             "--include-superseded": include_superseded,
             "--limit": None if limit == 1000 else limit}
    if page.prev_cursor is not None:
        less_before("earlier facts", "facts list", given, page.prev_cursor)
    if page.next_cursor is not None:
        more_follow("facts", "facts list", given, page.next_offset, page.next_cursor)
    if as_json:
        echo(dumps([dataclasses.asdict(f) for f in rows]))
        return
    if not rows:
        echo(nothing_note(mem, scope, "no facts"))
    for f in rows:
        flag = ("" if f.status == "current" else "  [ended: said to no longer hold]" if f.status == "ended"
                else f"  [superseded by {f.superseded_by}]")
        echo(f"{f.id:>5}  {f.scope}  {fact_sentence(f.subject, f.predicate, f.object)}"
             f"  (conf {figure(f.confidence, 2)}, {f.source}, ×{f.reinforcements + 1}, "
             f"{_ts(f.at)}; {fact_key(f.subject, f.predicate)}){flag}")

@facts.command("history")
@click.argument("subject")
@click.argument("predicate")
@click.option("--scope", default=None, help="Only this scope's values (default: every scope).")
@click.option("--now", default=None, help="Confidence as of this ISO-8601 time (default: now).")
@json_option
@click.pass_context
def facts_history(ctx: click.Context, subject: str, predicate: str, scope: str | None,
                  now: str | None, as_json: bool) -> None:
    """The chain of values SUBJECT PREDICATE has had, with when and from which session."""
    rows = memory_of(ctx).fact_history(subject, predicate, scope, now=now)
    if as_json:
        echo(dumps(rows))
        return
    if not rows:  # an empty history, as --json's [], the service's and MCP's: no error
        echo(f"no facts for {subject!r} {predicate!r}" + (f" in scope {scope!r}" if scope else ""),
             err=True)
        return
    # every scope's values (no --scope): each scope's chain on its own, named, as MCP's
    # answer names them; interleaved, two scopes' values read as two current values of one
    # chain (session 26)
    several = len({f["scope"] for f in rows}) > 1
    for f in sorted(rows, key=lambda f: f["scope"]) if several else rows:
        mark = {"current": "current   ", "ended": "ended     "}.get(f["status"], "superseded")
        where = f"session {f['session_id']}" if f["session_id"] else "added directly"
        where = f"scope {f['scope']}, {where}" if several else where
        echo(f"{mark} {_ts(f['at'])}  {f['object']}  ({where}, conf {figure(f['confidence'], 2)})")
        for e in f["events"]:
            other = f" → fact {e['other_id']}" if e["other_id"] else ""
            echo(f"             {_ts(e['at'])} {e['kind']}{other}")

@facts.command("forget")
@click.argument("fact_id", type=Int.of("forget_fact", "fact_id"))
@click.option("--vacuum", is_flag=True, help=VACUUM_HELP)
@json_option
@click.pass_context
def facts_forget(ctx: click.Context, fact_id: int, vacuum: bool, as_json: bool) -> None:
    """Hard delete a fact with its item, vector and lexical rows, and the graph's relations
    that restate it."""
    mem = memory_of(ctx)
    mem.forget_fact(fact_id)
    vacuum_after(mem, vacuum)
    echo(dumps({"forgotten": fact_id}) if as_json else f"fact {fact_id} forgotten")

@click.group()
def graph() -> None:
    """Explore the entity graph."""

@graph.command("show")
@click.argument("entity")
@click.option("--scope", default=None, help="Only this scope's graph (default: every scope).")
@json_option
@click.pass_context
def graph_show(ctx: click.Context, entity: str, scope: str | None, as_json: bool) -> None:
    """An entity, its relations and the items that mention it."""
    g = memory_of(ctx).graph(entity, scope)
    replaced = {(r["scope"], r["source"], r["relation"], r["target"]): r["replaced_by"]
                for r in g["superseded"]}
    if as_json:
        relations = [{"scope": sc, "source": src, "relation": rel, "target": dst,
                      "status": "superseded" if (sc, src, rel, dst) in replaced else "current",
                      "replaced_by": replaced.get((sc, src, rel, dst))}
                     for sc, src, rel, dst in g["relations"]]
        echo(dumps({"entity": g["entity"], "relations": relations,
                    "items": [item_dict(i) for i in g["items"]]}))
        return
    for n in g["entity"]:
        echo(f"{n.name} ({n.type}) in {n.scope}: {n.mentions} mention(s), "
                   f"{_ts(n.first_seen)} → {_ts(n.last_seen)}")
    for sc, src, rel, dst in g["relations"]:
        old = replaced.get((sc, src, rel, dst))
        echo(f"  {src} —{rel}→ {dst}  [{sc}]" + (f"  (superseded: now {old})" if old else ""))
    for i in g["items"][:10]:
        echo(f"  item {i.id} [{i.kind}] {clip(' '.join(i.text.split()), 100)}")
    if len(g["items"]) > 10:  # they were cut at 10 without a word
        echo(f"  … and {len(g['items']) - 10} more item(s) that mention it (--json lists "
             "them, up to the 50 newest of each node)")

@click.command()
@click.option("--scope", default=None, help="Only this scope's topics (default: every scope).")
@click.option("--topic", default=None, help="Fold this topic now, whatever its size or age.")
@click.option("--now", default=None,
              help="Treat this ISO-8601 time as now (a topic's age; only weeks ended by then).")
@json_option
@click.pass_context
def compact(ctx: click.Context, scope: str | None, topic: str | None, now: str | None,
            as_json: bool) -> None:
    """Fold topics' summaries into decision records; write weekly roll-ups."""
    r = memory_of(ctx).compact(scope=scope, topic=topic, now=now)
    if as_json:
        echo(dumps(r))
    else:
        echo(f"{r.decision_records} decision record(s) absorbing {r.summaries_absorbed} "
                   f"summaries; {r.weekly_rollups} weekly roll-up(s)")
    if r.notice:
        echo(r.notice, err=True)

@click.command()
@click.option("--now", default=None, help="Treat this ISO-8601 time as now.")
@json_option
@click.pass_context
def gc(ctx: click.Context, now: str | None, as_json: bool) -> None:
    """Expire items past their TTL and evict the lowest-value items of lanes over cap.

    Then delete the graph's nodes no entity item names and the relations whose fact or
    node is gone (an older memlane left them), and prune the live stream's change log
    ([memory.live])."""
    r = memory_of(ctx).gc(now)
    if as_json:
        echo(dumps(r))
    else:
        evicted = ", ".join(f"{k}={v}" for k, v in r.evicted.items()) or "none"
        echo(f"expired {r.expired} item(s); evicted {evicted}; pruned {r.changes_pruned} change(s);"
             f" removed {r.nodes_removed} unnamed graph node(s),"
             f" {r.relations_removed} relation(s) without their fact or node")
