"""Search filters, shared by every store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from memlane.errors import ValidationError
from memlane.types import KINDS, LANES, PRIVACIES, Item

__all__ = ["Filters"]


@dataclass(frozen=True, slots=True)
class Filters:
    """Which items a search may return. ``None`` means "any"."""

    scope: str | None = None
    agent: str | None = None
    project: str | None = None
    kinds: tuple[str, ...] | None = None
    lanes: tuple[str, ...] | None = None
    privacy: tuple[str, ...] = ("private", "project")
    since: float | None = None
    until: float | None = None
    session_id: int | None = None
    status: str = "active"

    def admits_in_session(self, it: Item) -> bool:
        """Whether ``it``, an item of a session the search already reached, passes the
        filters an item can fail on its own: status, privacy, lane and time."""
        at = it.at.timestamp()
        return (it.status == self.status
                and (self.privacy is None or it.privacy in self.privacy)
                and (self.lanes is None or it.lane in self.lanes)
                and (self.since is None or at >= self.since)
                and (self.until is None or at <= self.until))

    @classmethod
    def build(
        cls,
        *,
        scope: str | None = None,
        agent: str | None = None,
        project: str | None = None,
        kinds: Sequence[str] | None = None,
        lanes: Sequence[str] | None = None,
        privacy: Sequence[str] = ("private", "project"),
        since: float | None = None,
        until: float | None = None,
        session_id: int | None = None,
    ) -> Filters:
        """Validate and normalise caller input into Filters."""
        def check(values: Sequence[str] | None, allowed: tuple[str, ...], name: str):
            if values is None:
                return None
            if isinstance(values, str):
                values = [v for v in values.split(",") if v]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValidationError(
                    f"{name}: unknown value(s) {bad}; use {', '.join(allowed)}", field=name
                )
            return tuple(values)

        if since is not None and until is not None and since > until:
            # both values, as given back in UTC: which end is wrong (session 33: it named neither)
            def when(t: float) -> str:
                return datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z")

            raise ValidationError(f"since: must not be after until (since {when(since)}, "
                                  f"until {when(until)})", field="since")
        return cls(
            scope=scope,
            agent=agent,
            project=project,
            kinds=check(kinds, KINDS, "kinds"),
            lanes=check(lanes, LANES, "lanes"),
            privacy=check(privacy, PRIVACIES, "privacy") or (),
            since=since,
            until=until,
            session_id=session_id,
        )
