"""Resolve a search's options: caller arguments over the preset over ``[memory.retrieval]``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memlane.errors import ValidationError
from memlane.retrieve.presets import PRESETS, from_config
from memlane.retrieve.search import SearchOptions
from memlane.retrieve.twostage import StageParams

__all__ = ["SESSION_OPTIONS", "clash_text", "flat_by_call", "search_options"]

SESSION_OPTIONS = ("top_sessions", "turns_per_session")
"""The options only session-aware (two-stage) ranking reads."""


def _positive(name: str, value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ValidationError(f"{name}: must be a positive integer, got {value!r}", field=name)


def flat_by_call(preset: str | None, session_aware: bool | None, **given: Any) -> tuple[str, str] | None:
    """``(option, cause)`` when a call asks for session-aware ranking and turns it off
    itself. The ask: a session option (``top_sessions``, ``turns_per_session``, in
    ``given``), or ``session_aware`` true (``option`` is then ``session_aware``). The turning
    off: ``cause`` is ``session_aware`` (false) or ``preset`` (one of ``PRESETS`` that ranks
    flat: naming it chooses flat ranking, whatever ``session_aware`` says). Either was
    dropped without a word (session 33: the options; session 34: ``session_aware`` true
    beside ``flat``, ``arawn`` or ``lexical``). A flat ranking chosen by the configuration
    (``retrieval.session_aware``, ``retrieval.preset``, the ``default`` preset) is not the
    call's: a client sending the same options to every deployment is not refused, and its
    ``session_aware`` true wins over the configured ranking (``search_options``: the call
    over the preset over the config; session 35), as its ``--flat`` does over a configured
    session-aware one; so does a session option given without ``session_aware`` (session
    36: it was taken unread)."""
    chosen = PRESETS.get(preset) if isinstance(preset, str) else None
    flat_preset = chosen is not None and chosen.session_aware is False
    option = next((name for name in SESSION_OPTIONS if given.get(name) is not None), None)
    if option is None:
        return ("session_aware", "preset") if session_aware is True and flat_preset else None
    if session_aware is False:
        return option, "session_aware"
    return (option, "preset") if flat_preset else None


def clash_text(option: str, name: str, off: str) -> str:
    """What a surface says of ``flat_by_call``'s answer: ``name`` is how it spells
    ``option`` (``--top-sessions``, ``session_aware true``), ``off`` the flat ranking it was
    given (``--flat``, ``preset 'flat'``)."""
    wants = "asks for" if option == "session_aware" else "goes with"
    return f"{name} {wants} session-aware ranking, and {off} ranks flat: drop one of them"


def search_options(
    config: Any,
    *,
    preset: str | None = None,
    session_aware: bool | None = None,
    top_sessions: int | None = None,
    turns_per_session: int | None = None,
    mmr: bool | None = None,
    explain: bool = False,
    expand: Callable[[str], str | None] | None = None,
    meaning: Callable[[], Any] | None = None,
) -> SearchOptions:
    """SearchOptions for one call. ``None`` arguments fall back to the preset, then config.

    ``meaning`` returns the meaning tier (``memlane.retrieve.meaning.MeaningTier``); it is
    called only when the preset (or, for presets that leave it open, the config) turns the
    tier on. ``preset`` is ``default`` (the configured weights) or a name in ``PRESETS``; an unknown
    name raises ValidationError listing the known ones.
    """
    r = config.retrieval
    name = r.preset if preset is None else preset
    if name == "default":
        chosen = from_config(r)
    elif name in PRESETS:
        chosen = PRESETS[name]
    else:
        known = ", ".join(["default", *sorted(PRESETS)])
        raise ValidationError(f"preset: unknown preset {name!r}; use one of {known}", field="preset")
    _positive("top_sessions", top_sessions)
    _positive("turns_per_session", turns_per_session)
    clash = flat_by_call(preset, session_aware, top_sessions=top_sessions,
                         turns_per_session=turns_per_session)
    if clash is not None:
        option, cause = clash
        off = "session_aware=False" if cause == "session_aware" else f"preset {preset!r}"
        name = "session_aware=True" if option == "session_aware" else option
        raise ValidationError(f"{option}: {clash_text(option, name, off)}", field=option)
    bonuses = dict(chosen.kind_bonuses) if chosen.kind_bonuses is not None else r.kind_bonus_map()
    aware = session_aware
    if aware is None and (top_sessions is not None or turns_per_session is not None):
        # a session option asks for session-aware ranking (the call over the configured
        # ranking, as session_aware true, session 35): over a configured flat ranking it was
        # taken unread, without a word (session 36; a flat ranking the call chose itself is
        # refused above)
        aware = True
    if aware is None:
        aware = chosen.session_aware if chosen.session_aware is not None else r.session_aware
    tier_on = chosen.meaning if chosen.meaning is not None else r.meaning
    return SearchOptions(
        preset=chosen,
        session_aware=bool(aware),
        top_sessions=top_sessions or r.top_sessions,
        turns_per_session=turns_per_session or r.turns_per_session,
        final_k=r.final_k,
        late_turns=r.late_turns,
        candidates=r.candidates,
        mmr=r.mmr if mmr is None else bool(mmr),
        mmr_lambda=r.mmr_lambda,
        explain=bool(explain),
        kind_bonuses=bonuses,
        stage=StageParams(depth=r.session_depth, decay=r.session_decay,
                          intel_weight=r.session_intel_weight, time_boost=r.session_time_boost,
                          entity_boost=r.session_entity_boost,
                          lift=r.source_lift,
                          bonus={k: v * chosen.weight("kind") for k, v in bonuses.items()}),
        expand=expand,
        hyde_threshold=r.hyde_threshold,
        confidence=config.confidence,
        meaning=meaning() if tier_on and meaning is not None else None,
        meaning_candidates=r.meaning_candidates,
        meaning_cold=r.meaning_cold,
        newest_weight=r.newest_weight,
        graph_hops=r.graph_hops,
        graph_relevance=r.graph_relevance,
        speaker_factor=r.speaker_factor,
        reply_lift=r.reply_lift,
        timeless_factor=r.timeless_factor,
        feedback_weight=r.feedback_weight,
        feedback_depth=r.feedback_depth,
        opener_lift=r.opener_lift,
        gather_sessions=r.gather_sessions,
        gather_openers=r.gather_openers,
        impersonal_factor=r.impersonal_factor,
        reaction_factor=r.reaction_factor,
        named_lift=r.named_lift,
        doing_lift=r.doing_lift,
        first_named=r.speaker_first_named,
        hedge_words=r.hedge_words,
        newest_skips_speakers=r.newest_skips_speakers,
        speaker_session_weight=r.speaker_session_weight,
        assistant_factor=r.assistant_factor,
        continue_lift=r.continue_lift,
        advice_focus=r.advice_focus,
        day_parts=r.day_parts,
        meaning_weight=r.meaning_weight,
        meaning_list=r.meaning_list,
        meaning_list_weight=r.meaning_list_weight,
        meaning_speaker_list=r.meaning_speaker_list,
        meaning_speaker_weight=r.meaning_speaker_weight,
        meaning_speaker_gate=r.meaning_speaker_gate,
        meaning_speaker_lead=r.meaning_speaker_lead,
        speaker_list=r.speaker_list,
        speaker_list_weight=r.speaker_list_weight,
        speaker_list_gate=r.speaker_list_gate,
        speaker_list_lead=r.speaker_list_lead,
        pool_candidates=r.pool_candidates,
        min_similarity=r.min_similarity,
    )
