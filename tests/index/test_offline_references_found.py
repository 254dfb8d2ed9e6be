"""Reference classes of sessions 39 and 40, each found in sentences of its own: one table, a
row a case, named by its class (docs/summary-eval.md, "Session 39: heldout35's references
(ref39b)" and "Session 40: references (ref40)").

Folded from the seven tests of one shape in ``test_offline_ref39b_references.py`` and
``test_offline_ref40_references.py`` (session 41), every case kept; what each class must not
read, and the classes drawn by hypothesis, stay in those files."""

import pytest

from memlane.index.offline import _references

_CASES = {
    "ref39b git ssh address": [
        ("fatal: clone of 'git@github.com:acme/shared-schemas.git' into submodule path failed",
         "git@github.com:acme/shared-schemas.git"),
        ("the remote is git@gitlab.example.org:infra/terraform-modules, push there",
         "git@gitlab.example.org:infra/terraform-modules"),
        ("set origin to git@bitbucket.org:kiln/app.git.", "git@bitbucket.org:kiln/app.git"),
    ],
    "ref39b network share path": [
        (r"on the S: drive, \\fileserver\stock\counts\StockCount_v3.xlsm", r"\\fileserver\stock\counts\StockCount_v3.xlsm"),
        (r"add \\fileserver\stock\counts and tick 'Subfolders'", r"\\fileserver\stock\counts"),
        (r"scans land in \\nas01\scans\2024\.", r"\\nas01\scans\2024"),
    ],
    "ref39b hidden directory path": [
        ("run git submodule sync so your .git/config picks it up.", ".git/config"),
        ("the objects sit in .git/lfs until you prune", ".git/lfs"),
        ("add a step to .github/workflows/release.yml", ".github/workflows/release.yml"),
    ],
    "ref39b standard by body and number": [
        ("a repair may be allowed under BS AU 159, if the screw is in the centre", "BS AU 159"),
        ("check she's ISO 17100 qualified for this client", "ISO 17100"),
        ("the safety chapter must follow EN 60335 wording.", "EN 60335"),
        ("the frame meets BS EN 1176-1:2017, fine", "BS EN 1176-1:2017"),
        ("we're audited to ISO 9001:2015 now", "ISO 9001:2015"),
    ],
    "ref39b type's member in camel case": [
        ("I renamed Recipe.cookTime to prepMinutes in the same model version", "Recipe.cookTime"),
        ("one stack, NullPointerException in CheckoutFragment.onResume, Android 14 only", "CheckoutFragment.onResume"),
        ("the crash is in PlayerView.didMoveToWindow.", "PlayerView.didMoveToWindow"),
    ],
    "ref40 named resource": [
        ("the order-events Kafka topic does, retention 7 days. no id", "order-events"),
        ("fastgeo is ours, it's in the geo-tools repo. But the person", "geo-tools"),
        ("there's a job_runs table in postgres we can use", "job_runs"),
        ("I've added the needs-repro label for now.", "needs-repro"),
        ("code goes in the makerspace-access repo", "makerspace-access"),
    ],
    "ref40 rule by number, guideline in parts": [
        ("Nell: Rule 9 says £20 for a lost fob, but the handbook is old", "Rule 9"),
        ("it's a forfeit under Rule 12 of the league handbook", "Rule 12"),
        ("Apple rejected 4.12.0. guideline 5.1.1, we ask for location", "guideline 5.1.1"),
        ("App Review rejected it again. Guideline 3.1.1, they say", "Guideline 3.1.1"),
    ],
}


@pytest.mark.parametrize(("text", "ref"), [
    pytest.param(text, ref, id=f"{kind}: {ref}") for kind, cases in _CASES.items() for text, ref in cases])
def test_a_reference_of_its_class_is_found_in_a_sentence(text, ref):
    assert ref in set(_references(text)), list(_references(text))
