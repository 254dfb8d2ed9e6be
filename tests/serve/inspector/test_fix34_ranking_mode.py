"""The inspector's search form sends a ranking only when the user chose one (session 34,
fix34): its first choice, "the preset's", leaves ``session_aware`` to the preset and the
configuration; it sent session-aware beside every preset, which a preset ranking flat now
refuses."""

from __future__ import annotations

import re
from html import unescape

from memlane.retrieve.presets import PRESETS

FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)


def test_the_form_leaves_the_ranking_to_the_preset_unless_one_is_chosen(inspector) -> None:
    with inspector.client() as c:
        form = c.get("/ui/search").text
        assert re.search(r'<option value="preset" selected>the preset.s</option>', form)
        for preset in FLAT_PRESETS:
            for mode in ("", "preset", "flat"):
                page = c.get("/ui/search", params={"q": "billing", "preset": preset, "mode": mode})
                assert page.status_code == 200, (preset, mode, page.text)
                assert '<li class="hit card"' in page.text
            both = c.get("/ui/search", params={"q": "billing", "preset": preset, "mode": "session"})
            assert both.status_code == 400
            assert (f"mode: session-aware ranking was chosen, and preset {preset} ranks flat: "
                    "choose the preset's ranking, flat, or another preset") in unescape(both.text)
        aware = c.get("/ui/search", params={"q": "billing", "preset": "session", "mode": "session"})
        assert aware.status_code == 200 and '<li class="hit card"' in aware.text
