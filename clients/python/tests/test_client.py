"""The client against a real ``privet serve --demo`` on loopback (started by conftest.py).

Statistical assertions state their false-failure probability; the server draws its noise from
its secure source, so there is no seed: each bound below fails with the probability it states.
"""

from __future__ import annotations

import csv
import math
import socket
import uuid
from collections import Counter
from pathlib import Path
from typing import Dict

import pytest

import privet
from servers import LossyRelay, start_demo_server

COUNT_BY_SEX = ("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = {eps}, group_selection_strategy = PUBLIC_GROUPS)"
                " sex, COUNT(*) AS people FROM adult GROUP BY sex")


def true_counts_by_sex(adult_file: Path) -> Dict[str, int]:
    """The reference, computed here from the raw file (not by the engine)."""
    with adult_file.open(newline="") as f:
        return dict(Counter(row[9].strip() for row in csv.reader(f) if len(row) == 15))


def geometric_tail_bound(epsilon: float, failure: float) -> float:
    """t with P(|X| > t) <= failure for two-sided geometric noise of parameter ε (sensitivity 1):
    P(|X| > t) = 2 e^{-ε(t+1)} / (1 + e^{-ε}) <= 2 e^{-ε t}."""
    return math.log(2 / failure) / epsilon


def test_datasets_publicMetadataOnly(client: privet.Client) -> None:
    (adult,) = [d for d in client.datasets() if d.name == "adult"]
    assert adult.privacy_unit == "row"
    assert adult.columns is not None
    assert [c.name for c in adult.columns][:3] == ["age", "workclass", "fnlwgt"]
    assert dict((c.name, c.type) for c in adult.columns)["hours_per_week"] == "integer"
    assert adult.public_keys == {"sex": ["Female", "Male"]}


def test_query_groupsAndIntervalColumnsInPandas(client: privet.Client, adult_file: Path) -> None:
    eps = 0.05
    result = client.query(COUNT_BY_SEX.format(eps=eps))
    df = result.to_pandas()
    assert list(df.columns) == ["sex", "people", "people_lower", "people_upper"]
    assert list(df["sex"]) == ["Female", "Male"]
    assert (df["people_lower"] <= df["people"]).all() and (df["people"] <= df["people_upper"]).all()
    assert result.outputs == ("people",)
    assert isinstance(result.rows[0]["people"], privet.Estimate)
    assert result.rows[0]["people"].level == pytest.approx(0.95)
    # Each noisy count is within t of the true one, except with probability 1e-6 per group
    # (2e-6 for both); swapping the groups would be off by about 11,000 > 2t = 580.
    truth = true_counts_by_sex(adult_file)
    t = geometric_tail_bound(eps, 1e-6)
    for _, row in df.iterrows():
        assert abs(row["people"] - truth[row["sex"]]) <= t
    assert result.charge.epsilon == pytest.approx(eps, abs=1e-9)
    assert result.charge.dataset == "adult" and not result.replay


def test_query_meanWithBounds_everyOutputHasItsInterval(client: privet.Client) -> None:
    df = client.query(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.05, group_selection_strategy = PUBLIC_GROUPS)"
        " sex, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_row => (0, 100)) AS hours"
        " FROM adult GROUP BY sex ORDER BY sex").to_pandas()
    assert list(df.columns) == ["sex", "n", "n_lower", "n_upper", "hours", "hours_lower", "hours_upper"]
    assert ((df["hours_lower"] <= df["hours"]) & (df["hours"] <= df["hours_upper"])).all()


def test_query_sameKeyTwice_storedAnswerReplayed_chargedOnce(client: privet.Client) -> None:
    before = len(client.history("adult"))
    key = "pytest-" + uuid.uuid4().hex
    sql = COUNT_BY_SEX.format(eps=0.01)
    first = client.query(sql, idempotency_key=key)
    again = client.query(sql, idempotency_key=key)
    assert again.replay and not first.replay
    assert again.charge.id == first.charge.id
    assert again.to_pandas().equals(first.to_pandas()), "a retry never buys a fresh draw"
    assert len(client.history("adult")) == before + 1
    with pytest.raises(privet.QueryRefused):
        client.query(COUNT_BY_SEX.format(eps=0.02), idempotency_key=key)  # same key, other SQL


def test_query_answerLostInTransit_retriedWithTheSameKey_chargedOnce(server, client: privet.Client) -> None:
    """The relay forwards the request (the server charges and answers) and then drops the answer:
    the client retries on the connection error with the same Idempotency-Key and receives the
    stored release; the ledger holds one charge."""
    host, port = server.url.rsplit("//", 1)[1].rsplit(":", 1)
    relay = LossyRelay(host, int(port), lose=1)
    try:
        lossy = privet.Client(relay.url, server.key, retries=2, backoff=0.05)
        before = client.history("adult")
        result = lossy.query(COUNT_BY_SEX.format(eps=0.01))
        assert result.replay, "the retry was answered with the stored first release"
        after = client.history("adult")
        assert len(after) == len(before) + 1
        assert after[-1].id == result.charge.id
        keys = [r.split(b"Idempotency-Key: ", 1)[1].split(b"\r\n", 1)[0] for r in relay.requests]
        assert len(keys) == 2 and keys[0] == keys[1] == result.idempotency_key.encode()
    finally:
        relay.close()


def test_refused_lineAndColumn_nothingCharged(client: privet.Client) -> None:
    before = client.budget("adult")
    with pytest.raises(privet.QueryRefused) as refused:
        client.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1)\n  COUNT(*) AS n,\n"
                     "  AVG(sex) AS h\nFROM adult")
    assert (refused.value.line, refused.value.column) == (3, 7)
    assert refused.value.status == 422 and refused.value.code == "refused"
    assert "numeric column" in refused.value.message
    with pytest.raises(privet.QueryRefused) as not_dp:
        client.explain("SELECT\n  age FROM adult")
    assert (not_dp.value.line, not_dp.value.column) == (2, 3)
    assert isinstance(not_dp.value, privet.PrivetError)
    after = client.budget("adult")
    assert (after.remaining, after.charges) == (before.remaining, before.charges)


def test_budgetExceeded_nothingCharged(client: privet.Client) -> None:
    before = client.budget("adult")
    with pytest.raises(privet.BudgetExceeded) as e:
        client.query(COUNT_BY_SEX.format(eps=1.5))  # the demo analyst's share is ε = 1
    assert e.value.status == 409
    after = client.budget("adult")
    assert (after.remaining, after.charges) == (before.remaining, before.charges)


def test_notFound_unknownDataset(client: privet.Client) -> None:
    with pytest.raises(privet.NotFound):
        client.budget("no_such_dataset")
    with pytest.raises(privet.NotFound):
        client.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1) COUNT(*) AS n FROM no_such_dataset")


def test_wrongKey_authenticationError(server) -> None:
    with pytest.raises(privet.AuthenticationError) as e:
        privet.Client(server.url, "pvk.0000000000000000.wrong").datasets()
    assert e.value.status == 401


def test_apiKey_defaultsToTheEnvironment(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRIVET_API_KEY", server.key)
    assert [d.name for d in privet.Client(server.url).datasets()] == ["adult"]
    monkeypatch.delenv("PRIVET_API_KEY")
    with pytest.raises(ValueError, match="api_key"):
        privet.Client(server.url)
    assert server.key not in repr(privet.Client(server.url, server.key))


def test_explain_costAndExpectedErrors_chargesNothing(client: privet.Client) -> None:
    before = client.budget("adult")
    sql = COUNT_BY_SEX.format(eps=0.1)
    e = client.explain(sql)
    assert e.cost.epsilon == pytest.approx(0.1, abs=1e-9)
    assert e.remaining == before.remaining
    assert "GeometricMechanism" in e.plan or "Laplace" in e.plan
    assert [m.output for m in e.mechanisms] == ["people"]
    # Independent reference: two-sided geometric noise at ε = 0.1 has P(|X| > t) <= 5% for
    # t = ln(2/0.05)/0.1 = 36.9, and P(|X| > t) = 2e^{-ε(t+1)}/(1+e^{-ε}) > 5% for t = 28.
    assert 28 <= e.expected_errors["people"] <= 37
    assert e.fits is True
    after = client.budget("adult")
    assert (after.remaining, after.charges) == (before.remaining, before.charges)


def test_explain_maxError_targetsAndSolvedCost(client: privet.Client) -> None:
    e = client.explain(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 50, hours => 0.5), confidence = 0.95,"
        " min_count = 10000, group_selection_strategy = PUBLIC_GROUPS) sex, COUNT(*) AS n,"
        " AVG(hours_per_week, contribution_bounds_per_row => (0, 100)) AS hours FROM adult GROUP BY sex")
    assert {o.output: o.target for o in e.outputs} == {"n": 50, "hours": 0.5}
    for o in e.outputs:
        assert o.expected_error is not None and o.expected_error <= o.target * (1 + 1e-9)
    assert 0 < e.cost.epsilon < 1 and e.fits is True


def test_budgetAndHistory_agreeWithTheReleases(client: privet.Client) -> None:
    sql = COUNT_BY_SEX.format(eps=0.02)
    result = client.query(sql)
    history = client.history("adult")
    assert history[-1].id == result.charge.id and history[-1].query == sql
    assert [c.id for c in history] == sorted(c.id for c in history), "oldest first"
    budget = client.budget("adult")
    assert budget.total.epsilon == pytest.approx(1.0)
    assert budget.charges == len(history)
    # Basic composition on the demo dataset: the share's spend is the sum of the charges.
    assert budget.spent_epsilon == pytest.approx(sum(c.epsilon for c in history), abs=1e-9)


SYNTH_DOMAIN = {
    "header": False,
    "fileColumns": ["age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
                    "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week",
                    "native_country", "income"],
    "attributes": [
        {"name": "sex", "type": "categorical", "values": ["Female", "Male"]},
        {"name": "income", "type": "categorical", "values": ["<=50K", ">50K"]},
        {"name": "age", "type": "numeric", "lower": 17, "upper": 91, "bins": 8},
    ],
}


def test_synth_jobWaitsAndReadsIntoPandas_chargedOnce(client: privet.Client) -> None:
    before = client.budget("adult")
    job = client.synth("adult", method="mwem", epsilon=0.1, domain=SYNTH_DOMAIN)
    df = job.wait(timeout=300).to_pandas()
    assert list(df.columns) == ["sex", "income", "age"]
    assert len(df) > 0
    assert set(df["sex"]) <= {"Female", "Male"} and set(df["income"]) <= {"<=50K", ">50K"}
    assert df["age"].between(17, 91).all()
    assert job.charge.epsilon == pytest.approx(0.1)
    after = client.budget("adult")
    assert after.charges == before.charges + 1
    assert client.history("adult")[-1].id == job.charge.id
    again = client.synth("adult", method="mwem", epsilon=0.1, domain=SYNTH_DOMAIN, idempotency_key=job.idempotency_key)
    assert again.replay and again.id == job.id
    assert client.budget("adult").charges == after.charges


def test_synth_badDomain_badRequestNamesIt(client: privet.Client) -> None:
    """A domain attribute that is not a column: 400 naming the domain, nothing charged (it was a
    500 before SynthJobs.start mapped RegisteredSynthesis.prepare's public refusals)."""
    before = client.budget("adult")
    with pytest.raises(privet.BadRequest, match="domain"):
        client.synth("adult", method="mwem", epsilon=0.1, domain={"attributes": [
            {"name": "sex", "type": "categorical", "values": ["Female", "Male"]},
            {"name": "income", "type": "categorical", "values": ["<=50K", ">50K"]},
            {"name": "nosuch", "type": "coded", "size": 2}]})
    after = client.budget("adult")
    assert (after.remaining, after.charges) == (before.remaining, before.charges)


def test_plan_explainsTheWorkload_chargesNothing(client: privet.Client) -> None:
    before = client.budget("adult")
    queries = [
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 100), group_selection_strategy = PUBLIC_GROUPS)"
        " sex, COUNT(*) AS n FROM adult GROUP BY sex",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (hours => 1), min_count = 10000,"
        " group_selection_strategy = PUBLIC_GROUPS) sex,"
        " AVG(hours_per_week, contribution_bounds_per_row => (0, 100)) AS hours FROM adult GROUP BY sex",
    ]
    plan = client.plan(queries)
    assert len(plan.explanations) == 2
    assert plan.total.epsilon == pytest.approx(sum(e.cost.epsilon for e in plan.explanations))
    assert plan.fits is True
    assert list(plan.to_pandas()["output"]) == ["n", "hours"]
    after = client.budget("adult")
    assert (after.remaining, after.charges) == (before.remaining, before.charges)


def test_connectionRefused_connectionFailedAfterRetries() -> None:
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    c = privet.Client(f"http://127.0.0.1:{port}", "pvk.x.y", retries=2, backoff=0.01)
    with pytest.raises(privet.ConnectionFailed, match="3 attempts"):
        c.datasets()


def test_rateLimited_retryAfter(tmp_path: Path) -> None:
    """Its own server: eleven failed authentications block this address for a minute."""
    from conftest import require_jar

    require_jar()
    s = start_demo_server(tmp_path)
    try:
        wrong = privet.Client(s.url, "pvk.0000000000000000.wrong")
        for _ in range(10):
            with pytest.raises(privet.AuthenticationError):
                wrong.datasets()
        with pytest.raises(privet.RateLimited) as limited:
            wrong.datasets()
        assert limited.value.retry_after == 60 and limited.value.status == 429
        with pytest.raises(privet.RateLimited):
            privet.Client(s.url, s.key).datasets()  # even a valid key, while blocked
    finally:
        s.stop()
