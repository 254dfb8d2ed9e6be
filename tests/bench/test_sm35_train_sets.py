"""``memlane bench summaries --train --train-sets NAMES`` (session 35): the dense model
trained and cross-validated on the sets named, each a part; a name that is no set, or a set
named twice (alone or inside a group), is refused naming the option before any training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.bench.summaries import load_set
from memlane.index.sentmodel import load_dense
from memlane.serve.cli import cli


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["bench", "summaries", *args])
    return result.exit_code, result.output


def test_train_sets_trains_on_the_sets_named_each_a_part(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    out = tmp_path / "w.npz"
    code, output = _run("--train", "--train-sets", "heldout5, heldout6", "--folds", "2",
                        "--json", "--out", str(out))
    assert code == 0, output
    report = json.loads(output)
    both = len(load_set("heldout5")) + len(load_set("heldout6"))
    assert report["meta"]["trained_on"] == both == 60
    assert set(report["cross_validation"]["patterns alone"]) == {"heldout5", "heldout6", "all"}
    assert load_dense(out).meta["trained_on"] == both  # the weights written are these


@pytest.mark.parametrize(("given", "said"), [
    ("heldout5,heldout99", "'heldout99' is no packaged set"),
    ("heldout5,", "'' is no packaged set"),
    ("heldout5,heldout5", "heldout5 is named twice; give each set once"),
    ("pool,dev", "dev is named twice (pool holds it)"),
    ("dev_all,train", "train1 is named twice (dev_all and train both hold it)"),
])
def test_a_bad_train_sets_is_refused_naming_it_before_training(
        tmp_path: Path, given: str, said: str) -> None:
    out = tmp_path / "w.npz"
    code, output = _run("--train", "--train-sets", given, "--out", str(out))
    assert code == 2, output
    assert "--train-sets" in output and said in output
    assert not out.exists()


@pytest.mark.parametrize("other", [(), ("--kind", "linear")])
def test_train_sets_without_dense_training_is_a_usage_error(other: tuple[str, ...]) -> None:
    args = ["--train", *other] if other else ["--set", "dev"]
    code, output = _run(*args, "--train-sets", "heldout5")
    assert code == 2 and "--train-sets needs --train --kind dense" in output
