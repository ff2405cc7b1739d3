"""``Client.train`` against a real ``privet serve`` (``POST /v1/train``), and ``privet.predict``
(pure Python post-processing) against the real CLI's ``privet predict`` on
docs/examples/new-people.csv: the same predictions, the same probabilities."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import privet
from conftest import require_jar
from servers import REPO, jar, java, start_server

NEW_PEOPLE = REPO / "docs" / "examples" / "new-people.csv"
ADULT_COLUMNS = ("age,workclass,fnlwgt,education,education_num,marital_status,occupation,relationship,race,sex,"
                 "capital_gain,capital_loss,hours_per_week,native_country,income")
BOUNDS = {"age": [17, 90], "education_num": [1, 16], "capital_gain": [0, 99999], "capital_loss": [0, 5000],
          "hours_per_week": [1, 99]}
KEYS = {"sex": ["Female", "Male"], "race": ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"]}


def cli(*args: str, cwd: Path = REPO) -> str:
    done = subprocess.run([java(), "-jar", str(jar()), *args], cwd=str(cwd), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"privet {' '.join(args)}: {done.stderr}"
    return done.stdout


def cli_predict(model: Dict[str, Any], tmp: Path) -> List[Dict[str, Any]]:
    """``privet predict --format json`` on new-people.csv with this model JSON."""
    path = tmp / "model.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    return json.loads(cli("predict", "--model", str(path), "--source", str(NEW_PEOPLE), "--format", "json"))


def features(names: List[str]) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for n in names:
        if n in BOUNDS:
            out.append({"name": n, "type": "numeric", "lower": BOUNDS[n][0], "upper": BOUNDS[n][1]})
        else:
            out.append({"name": n, "type": "categorical", "keys": KEYS[n]})
    return out


def coordinates(names: List[str]) -> List[str]:
    out = ["(intercept)"]
    for n in names:
        out.extend([n] if n in BOUNDS else [f"{n}={k}" for k in KEYS[n]])
    return out


def assert_same(ours: List[Dict[str, Any]], theirs: List[Dict[str, Any]], regression: bool) -> None:
    assert len(ours) == len(theirs) == 4
    for a, b in zip(ours, theirs):
        assert a["name"] == b["name"]
        if regression:
            # Java writes Double.toString of the same double; reading it back gives that double
            assert a["prediction"] == pytest.approx(float(b["prediction"]), rel=1e-15, abs=0)
        else:
            assert a["prediction"] == b["prediction"]
            # the same sums in the same order; Math.exp and libm's exp may differ in the last bit
            assert a["probability"] == pytest.approx(b["probability"], rel=1e-13, abs=0)


ALL = ["age", "education_num", "capital_gain", "capital_loss", "hours_per_week", "sex", "race"]


def test_predict_logistic_equalsTheCli(tmp_path: Path) -> None:
    require_jar()
    coef = [-4.0, 2.1, 3.3, 9.0, 1.4, 2.2, -0.4, 0.35, 0.2, 0.1, -0.3, 0.05, -0.25]
    assert len(coef) == len(coordinates(ALL))
    model = {"format": "privet-model-1", "model": "logistic-regression", "method": "objective-perturbation",
             "label": {"column": "income", "positive": ">50K", "negative": "<=50K"}, "features": features(ALL),
             "scale": 1 / math.sqrt(8), "coefficients": dict(zip(coordinates(ALL), coef)), "privacy": {}}
    ours = privet.predict(model, privet.training.read_csv_rows(NEW_PEOPLE))
    assert_same(ours, cli_predict(model, tmp_path), regression=False)
    assert {o["prediction"] for o in ours} == {">50K", "<=50K"}, "both classes occur: the rule is exercised"


def test_predict_linear_equalsTheCli_andPandasAgrees(tmp_path: Path) -> None:
    require_jar()
    pandas = pytest.importorskip("pandas")
    names = ["age", "education_num", "sex"]
    coef = [0.11, -0.4, 0.9, 0.3, -0.2]
    model = {"format": "privet-model-1", "model": "linear-regression", "method": "adassp",
             "label": {"column": "hours_per_week", "lower": 1, "upper": 99}, "features": features(names),
             "scale": 0.5, "coefficients": dict(zip(coordinates(names), coef)), "privacy": {}}
    ours = privet.predict(model, privet.training.read_csv_rows(NEW_PEOPLE))
    assert_same(ours, cli_predict(model, tmp_path), regression=True)
    frame = privet.predict(privet.Model(model), pandas.read_csv(NEW_PEOPLE))
    assert list(frame["prediction"]) == [o["prediction"] for o in ours]
    assert "probability" not in frame.columns


def test_predict_naiveBayes_equalsTheCli(tmp_path: Path) -> None:
    require_jar()
    names = ["age", "hours_per_week", "sex"]
    coords = coordinates(names)[1:]
    nb = {"<=50K": {"log_prior": math.log(0.75), "means": dict(zip(coords, [0.1, 0.12, 0.2, 0.15])),
                    "variances": dict(zip(coords, [0.01, 0.02, 0.03, 0.02]))},
          ">50K": {"log_prior": math.log(0.25), "means": dict(zip(coords, [0.18, 0.16, 0.1, 0.25])),
                   "variances": dict(zip(coords, [0.015, 0.01, 0.02, 0.03]))}}
    model = {"format": "privet-model-1", "model": "gaussian-naive-bayes", "method": "gaussian-naive-bayes",
             "label": {"column": "income", "positive": ">50K", "negative": "<=50K"}, "features": features(names),
             "scale": 0.5, "naive_bayes": nb, "privacy": {}}
    assert_same(privet.predict(model, privet.training.read_csv_rows(NEW_PEOPLE)), cli_predict(model, tmp_path),
                regression=False)


def test_predict_missingFeatureColumn_namesIt() -> None:
    model = {"format": "privet-model-1", "model": "linear-regression", "method": "adassp",
             "label": {"column": "y", "lower": 0, "upper": 1}, "features": features(["age"]), "scale": 0.7,
             "coefficients": {"(intercept)": 0.0, "age": 1.0}, "privacy": {}}
    with pytest.raises(ValueError, match="age"):
        privet.predict(model, [{"name": "x"}])


@pytest.fixture(scope="module")
def trainer(tmp_path_factory: pytest.TempPathFactory):
    """``privet serve`` over a workspace of its own: Adult registered with (ε, δ) = (2, 1e-6), an
    analyst alice granted (1, 1e-6) (the demo's pure-ε share admits no δ)."""
    require_jar()
    tmp = tmp_path_factory.mktemp("train")
    ws = str(tmp / "ws")
    cli("dataset", "register", "--workspace", ws, "--name", "adult_ml", "--source", "data/adult-raw/adult.data",
        "--no-header", "--columns", ADULT_COLUMNS, "--delimiter", ", ", "--null-string", "?", "--row-privacy",
        "--epsilon", "2", "--delta", "1e-6")
    key = next(line.strip() for line in cli("analyst", "add", "--workspace", ws, "--name", "alice").splitlines()
               if line.startswith("pvk."))
    cli("budget", "grant", "--workspace", ws, "--dataset", "adult_ml", "--analyst", "alice", "--epsilon", "1",
        "--delta", "1e-6")
    s = start_server(tmp / "serve", ["serve", "--workspace", ws, "--port", "0"], key)
    try:
        yield privet.Client(s.url, s.key)
    finally:
        s.stop()


def test_train_jobRunsOnce_modelPredictsLikeTheCli_retrySameJob(trainer: privet.Client, tmp_path: Path) -> None:
    job = trainer.train("adult_ml", model="logistic-regression", label="income", positive=">50K",
                        negative="<=50K", features=ALL, feature_bounds=BOUNDS, feature_keys=KEYS,
                        epsilon=0.5, delta=1e-7)
    model = job.model()
    assert model.kind == "logistic-regression" and model.method == "objective-perturbation"
    assert model.coordinates == coordinates(ALL)
    assert model.privacy["ledger_charge"] == job.charge.id
    assert job.charge.epsilon == pytest.approx(0.5)
    again = trainer.train("adult_ml", model="logistic-regression", label="income", positive=">50K",
                          negative="<=50K", features=ALL, feature_bounds=BOUNDS, feature_keys=KEYS,
                          epsilon=0.5, delta=1e-7, idempotency_key=job.idempotency_key)
    assert again.replay and again.id == job.id
    assert again.model().json == model.json, "one charge, one model"
    assert len(trainer.history("adult_ml")) == 1
    ours = job.predict(privet.training.read_csv_rows(NEW_PEOPLE))
    assert_same(ours, cli_predict(model.json, tmp_path), regression=False)


def test_train_refused_namesTheField_chargesNothing(trainer: privet.Client) -> None:
    before = len(trainer.history("adult_ml"))
    with pytest.raises(privet.BadRequest, match="featureBounds"):
        trainer.train("adult_ml", label="income", positive=">50K", features=["age"], feature_bounds={"age": [90, 17]},
                      epsilon=0.1, delta=1e-7)
    with pytest.raises(privet.BadRequest, match="features"):
        trainer.train("adult_ml", label="income", positive=">50K", features=["nosuch"], epsilon=0.1, delta=1e-7)
    assert len(trainer.history("adult_ml")) == before
