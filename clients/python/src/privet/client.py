"""The client of ``privet serve``'s HTTP API (``/v1``, docs/openapi.json), standard library only."""

from __future__ import annotations

import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import ConnectionFailed, error_from_response
from .models import (
    Budget,
    Charge,
    Dataset,
    Explanation,
    PrivacyLoss,
    QueryResult,
    SynthJob,
    WorkloadPlan,
    _sum_losses,
)
from .training import TrainJob, predict

__all__ = ["Client"]

_IDEMPOTENCY_KEY = "Idempotency-Key"
_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
_CONNECTION_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout,
                      TimeoutError)


class Client:
    """An authenticated connection to a Privet curator (``privet serve``).

    Args:
        url: the server's base URL, e.g. ``http://127.0.0.1:8080``.
        api_key: the analyst's API key (from ``privet analyst add``); defaults to the
            environment variable ``PRIVET_API_KEY``.
        timeout: seconds to wait for each answer (above the server's ``--query-timeout``).
        retries: how many times a request is sent again after a connection error (refused,
            reset, timed out), with exponential backoff from ``backoff`` seconds.

    Releases are safe to retry: every ``query``, ``synth`` and ``train`` carries an ``Idempotency-Key`` (a
    fresh random one unless you pass your own), and a retry after a lost answer sends the same
    key, so the server answers with the stored first release (``replay=True``) and charges
    nothing again. A retry never buys a fresh noisy draw.

    Errors raise one :class:`~privet.PrivetError` subclass per server error code
    (:class:`~privet.QueryRefused` with ``line``/``column``, :class:`~privet.BudgetExceeded`,
    :class:`~privet.AuthenticationError`, :class:`~privet.NotFound`,
    :class:`~privet.RateLimited` with ``retry_after``, ...).
    """

    def __init__(
        self,
        url: str,
        api_key: Optional[str] = None,
        *,
        timeout: float = 120.0,
        retries: int = 3,
        backoff: float = 0.5,
    ) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError("url: an http:// or https:// base URL is required, e.g. http://127.0.0.1:8080")
        key = api_key if api_key is not None else os.environ.get("PRIVET_API_KEY")
        if not key:
            raise ValueError("api_key: pass the API key or set PRIVET_API_KEY")
        if retries < 0:
            raise ValueError("retries: must be >= 0")
        self.url = url.rstrip("/")
        self._key = key
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        host = urllib.parse.urlsplit(self.url).hostname or ""
        # Loopback never goes through a proxy from the environment.
        handlers: List[urllib.request.BaseHandler] = [_NoRedirects()]
        if host in _LOOPBACK:
            handlers.append(urllib.request.ProxyHandler({}))
        self._opener = urllib.request.build_opener(*handlers)

    def __repr__(self) -> str:  # never shows the key
        return f"Client({self.url!r})"

    # ---- the API

    def health(self) -> bool:
        """Whether the server answers ``GET /v1/health`` with ``{"status": "ok"}``."""
        return bool(self._get("/v1/health").get("status") == "ok")

    def datasets(self) -> List[Dataset]:
        """The datasets visible to you (granted ones), with their public schema and metadata."""
        return [Dataset.from_json(d) for d in self._get("/v1/datasets")]

    def explain(self, sql: str) -> Explanation:
        """The plan of a DP SQL query, its cost against your remaining budget and each output's
        expected error. Charges nothing."""
        return Explanation.from_json(sql, self._post("/v1/explain", {"sql": _sql(sql)}))

    def query(self, sql: str, idempotency_key: Optional[str] = None) -> QueryResult:
        """Runs a DP SQL query (docs/sql.md): charged once, then released.

        Args:
            sql: ``SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (...) ... FROM <dataset>``.
            idempotency_key: the release's key (1 to 255 visible ASCII characters); a fresh
                random one by default. Sending the same key and SQL again returns the stored
                answer and charges nothing; the same key with other SQL is refused.

        Raises:
            QueryRefused: not a valid DP query (``line``/``column`` give the position); nothing charged.
            BudgetExceeded: your share or the dataset's total does not cover it; nothing charged.
            NotFound: no such dataset, or none granted to you.
        """
        key = _key(idempotency_key)
        body = self._post("/v1/query", {"sql": _sql(sql)}, headers={"Idempotency-Key": key})
        return QueryResult.from_json(body, key)

    def budget(self, dataset: str) -> Budget:
        """Your budget view of a dataset: your share's total, spend and remainder."""
        return Budget.from_json(self._get("/v1/budget?" + urllib.parse.urlencode({"dataset": dataset})))

    def history(self, dataset: str) -> List[Charge]:
        """Your charges on a dataset, oldest first (each with its query text and cost)."""
        return [Charge.from_json(c) for c in self._get("/v1/history?" + urllib.parse.urlencode({"dataset": dataset}))]

    def synth(
        self,
        dataset: str,
        *,
        domain: Mapping[str, Any],
        epsilon: float,
        method: str = "aim",
        delta: Optional[float] = None,
        noise: Optional[str] = None,
        queries: Optional[Sequence[str]] = None,
        idempotency_key: Optional[str] = None,
    ) -> SynthJob:
        """Starts a DP synthetic-data job; the charge is committed before the job starts.

        Args:
            dataset: a dataset granted to you (one row per privacy unit).
            domain: the public domain, e.g. ``{"header": False, "fileColumns": [...],
                "attributes": [{"name": "sex", "type": "categorical", "values": ["Female", "Male"]},
                {"name": "age", "type": "numeric", "lower": 17, "upper": 91, "bins": 8}]}``
                (never read from the data).
            epsilon: the job's ε.
            method: ``aim``, ``mst``, ``rap`` (zCDP, need ``delta``) or ``mwem`` (pure ε).
            delta: the job's δ (the server's default when None).
            noise: ``rap`` only: ``gaussian`` or ``laplace`` (pure ε).
            queries: optional workload lines (``"marginal age,sex"``, ``"count sex=Female"``, ...).
            idempotency_key: as for :meth:`query`.

        Returns:
            a :class:`SynthJob`; ``job.wait()`` then ``job.to_pandas()``.
        """
        body: Dict[str, Any] = {"dataset": dataset, "domain": dict(domain), "epsilon": epsilon, "method": method}
        if delta is not None:
            body["delta"] = delta
        if noise is not None:
            body["noise"] = noise
        if queries is not None:
            body["queries"] = list(queries)
        key = _key(idempotency_key)
        j = self._post("/v1/synth", body, headers={"Idempotency-Key": key})
        return SynthJob(self, str(j["job"]), Charge.from_json(j["charge"]), bool(j.get("replay", False)), key)

    def train(
        self,
        dataset: str,
        *,
        label: str,
        features: Sequence[str],
        epsilon: float,
        delta: float,
        model: str = "logistic-regression",
        method: Optional[str] = None,
        positive: Optional[str] = None,
        negative: Optional[str] = None,
        label_bounds: Optional[Sequence[float]] = None,
        feature_bounds: Optional[Mapping[str, Union[str, Sequence[float]]]] = None,
        feature_keys: Optional[Mapping[str, Sequence[str]]] = None,
        max_rows_per_unit: Optional[int] = None,
        regularization: Optional[float] = None,
        idempotency_key: Optional[str] = None,
    ) -> TrainJob:
        """Starts a DP model-training job (``POST /v1/train``); the charge, (ε, δ), is committed
        before the job starts, and the request is checked against public information first (a
        :class:`~privet.BadRequest` naming the field charges nothing).

        Args:
            dataset: a dataset granted to you.
            label: the column to predict.
            features: the feature columns.
            epsilon, delta: the job's (ε, δ).
            model: ``logistic-regression`` (default), ``linear-regression`` or ``gaussian-naive-bayes``.
            method: ``objective-perturbation`` (logistic default) or ``dp-sgd``; ``adassp``
                (linear); ``gaussian-naive-bayes``.
            positive, negative: classifiers: the label value that is positive, and the name
                predicted for the other class.
            label_bounds: linear regression: ``(low, high)``, public (default: the registered bounds).
            feature_bounds: ``{"age": (17, 90), ...}``: public bounds of numeric features, or
                ``"AUTO"`` (also the default for a numeric feature without bounds): bounds estimated
                privately, paid from the same charge.
            feature_keys: ``{"sex": ["Female", "Male"], ...}``: public keys of categorical features.
            max_rows_per_unit: datasets with a privacy-unit column: rows kept per unit.
            regularization: objective perturbation's ridge Λ.
            idempotency_key: as for :meth:`query`.

        Returns:
            a :class:`TrainJob`; ``job.model()`` waits and returns the :class:`Model`, and
            :func:`privet.predict` applies it here (post-processing, free).
        """
        body: Dict[str, Any] = {"dataset": dataset, "model": model, "label": label, "features": list(features),
                                "epsilon": epsilon, "delta": delta}
        if method is not None:
            body["method"] = method
        if positive is not None:
            body["positive"] = positive
        if negative is not None:
            body["negative"] = negative
        if label_bounds is not None:
            body["labelBounds"] = list(label_bounds)
        if feature_bounds is not None:
            body["featureBounds"] = {k: v if isinstance(v, str) else list(v) for k, v in feature_bounds.items()}
        if feature_keys is not None:
            body["featureKeys"] = {k: list(v) for k, v in feature_keys.items()}
        if max_rows_per_unit is not None:
            body["maxRowsPerUnit"] = max_rows_per_unit
        if regularization is not None:
            body["regularization"] = regularization
        key = _key(idempotency_key)
        j = self._post("/v1/train", body, headers={"Idempotency-Key": key})
        return TrainJob(self, str(j["job"]), Charge.from_json(j["charge"]), bool(j.get("replay", False)), key)

    @staticmethod
    def predict(model: Any, rows: Any) -> Any:
        """:func:`privet.predict`: applies a released model to your rows here (nothing is sent)."""
        return predict(model, rows)

    def plan(self, queries: Iterable[str]) -> WorkloadPlan:
        """Explains a workload of queries before spending anything (accuracy first).

        Write each query with ``max_error`` (the error you can live with) and the server solves
        the smallest budget that meets it; this returns each query's explanation, their total
        cost (basic composition) and whether it fits your remaining budget. Nothing is charged;
        run the queries with :meth:`query`. (``privet plan`` on the command line also splits one
        budget across a workload optimally; the HTTP API has no such route yet.)
        """
        explanations: Tuple[Explanation, ...] = tuple(self.explain(q) for q in queries)
        if not explanations:
            raise ValueError("queries: at least one query is required")
        remaining: Optional[PrivacyLoss] = None
        for e in explanations:
            if e.remaining is not None and (remaining is None or (e.remaining.epsilon or 0) < (remaining.epsilon or 0)):
                remaining = e.remaining
        return WorkloadPlan(explanations, _sum_losses([e.cost for e in explanations]), remaining)

    # ---- HTTP

    def _get(self, path: str) -> Any:
        return self._json(self._send("GET", path, None, {}))

    def _get_text(self, path: str) -> str:
        return self._send("GET", path, None, {})[2].decode("utf-8")

    def _post(self, path: str, body: Mapping[str, Any], headers: Optional[Mapping[str, str]] = None) -> Any:
        return self._json(self._send("POST", path, json.dumps(body).encode("utf-8"), dict(headers or {})))

    @staticmethod
    def _json(answer: Tuple[int, Dict[str, str], bytes]) -> Any:
        return json.loads(answer[2].decode("utf-8"))

    def _send(self, method: str, path: str, data: Optional[bytes],
              headers: Dict[str, str]) -> Tuple[int, Dict[str, str], bytes]:
        """Sends one request, again (same headers, hence the same Idempotency-Key) after a
        connection error; an HTTP error answer raises its PrivetError at once."""
        headers = dict(headers)
        headers["Authorization"] = "Bearer " + self._key
        headers["Accept"] = "application/json"
        headers["User-Agent"] = "privet-python/0.1"
        if data is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
            try:
                with self._opener.open(request, timeout=self.timeout) as r:
                    return r.status, dict(r.headers.items()), r.read()
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    body = json.loads(raw.decode("utf-8"))
                except ValueError:
                    body = None
                raise error_from_response(e.code, body, dict(e.headers.items())) from None
            except _CONNECTION_ERRORS as e:
                if attempt >= self.retries:
                    key = headers.get(_IDEMPOTENCY_KEY)  # a request header, not a field of an answer
                    hint = (f"; it may have been charged: retry with idempotency_key={key!r} to receive it"
                            if key is not None else "")
                    raise ConnectionFailed(f"{method} {path}: no answer from {self.url} after {attempt + 1} attempts"
                                           f" ({type(e).__name__}){hint}", idempotency_key=key) from e
                time.sleep(self.backoff * (2 ** attempt))
                attempt += 1


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed: urllib would resend the Authorization header (the API key) to
    whatever origin the Location names. A 3xx answer raises its PrivetError instead."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> None:
        return None


def _key(key: Optional[str]) -> str:
    if key is None:
        return uuid.uuid4().hex
    if not (1 <= len(key) <= 255) or any(not (0x21 <= ord(c) <= 0x7E) for c in key):
        raise ValueError("idempotency_key: 1 to 255 visible ASCII characters")
    return key


def _sql(sql: str) -> str:
    if not isinstance(sql, str) or not sql.strip():
        raise ValueError("sql: a non-empty string is required")
    return sql


