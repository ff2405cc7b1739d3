"""Immutable values read from the server's JSON answers (docs/openapi.json).

Each value keeps the JSON it was read from in ``raw``, so a field this client does not model yet
is still reachable.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    import pandas  # type: ignore[import-untyped]

    from .client import Client

__all__ = [
    "PrivacyLoss",
    "Column",
    "Dataset",
    "Charge",
    "Estimate",
    "QueryResult",
    "Mechanism",
    "OutputError",
    "Explanation",
    "Budget",
    "SynthJob",
    "WorkloadPlan",
]


def _float(value: Any) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class PrivacyLoss:
    """A privacy loss or budget: ``measure`` is ``pure``, ``approx``, ``zcdp`` or ``approx-zcdp``."""

    measure: str
    epsilon: Optional[float] = None
    delta: Optional[float] = None
    rho: Optional[float] = None

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "PrivacyLoss":
        return PrivacyLoss(str(j.get("measure", "")), _float(j.get("epsilon")), _float(j.get("delta")),
                           _float(j.get("rho")))

    def __str__(self) -> str:
        parts = [f"{k}={v:g}" for k, v in (("epsilon", self.epsilon), ("delta", self.delta), ("rho", self.rho))
                 if v is not None]
        return ", ".join(parts) if parts else self.measure


def _sum_losses(losses: Sequence[PrivacyLoss]) -> Optional[PrivacyLoss]:
    """Basic (sequential) composition, for display: ε and δ add up, and so does ρ.

    None when the losses mix ε and ρ (their composition is the server's accountant's business).
    The server's ledger, not this sum, decides what a charge costs.
    """
    if not losses:
        return PrivacyLoss("pure", 0.0)
    if all(loss.rho is None for loss in losses):
        eps = sum(loss.epsilon or 0.0 for loss in losses)
        delta = sum(loss.delta or 0.0 for loss in losses)
        return PrivacyLoss("approx" if delta > 0 else "pure", eps, delta if delta > 0 else None)
    if all(loss.epsilon is None and loss.delta is None for loss in losses):
        return PrivacyLoss("zcdp", rho=sum(loss.rho or 0.0 for loss in losses))
    return None


@dataclass(frozen=True)
class Column:
    """A column of a dataset's public schema."""

    name: str
    type: str


@dataclass(frozen=True)
class Dataset:
    """A dataset visible to the caller: public metadata only, never a row."""

    name: str
    privacy_unit: Optional[str]
    columns: Optional[Tuple[Column, ...]]
    public_keys: Dict[str, List[str]]
    public_bounds: Dict[str, Tuple[Optional[float], Optional[float]]]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "Dataset":
        cols = j.get("columns")
        return Dataset(
            name=str(j["name"]),
            privacy_unit=j.get("privacyUnit"),
            columns=None if cols is None else tuple(Column(str(c["name"]), str(c["type"])) for c in cols),
            public_keys={k: list(v) for k, v in (j.get("publicKeys") or {}).items()},
            public_bounds={k: (_float(v.get("lower")), _float(v.get("upper")))
                           for k, v in (j.get("publicBounds") or {}).items()},
            raw=dict(j),
        )


@dataclass(frozen=True)
class Charge:
    """A ledger charge: committed before anything was released.

    ``cost`` lists each mechanism's loss; ``total`` is their basic composition (for display).
    """

    id: int
    dataset: str
    analyst: str
    time: str
    query: str
    cost: Tuple[PrivacyLoss, ...]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "Charge":
        return Charge(int(j["id"]), str(j.get("dataset", "")), str(j.get("analyst", "")), str(j.get("time", "")),
                      str(j.get("query", "")), tuple(PrivacyLoss.from_json(c) for c in j.get("cost", [])), dict(j))

    @property
    def total(self) -> Optional[PrivacyLoss]:
        return _sum_losses(self.cost)

    @property
    def epsilon(self) -> Optional[float]:
        """The ε of ``total`` (None for a ρ charge)."""
        t = self.total
        return None if t is None else t.epsilon


@dataclass(frozen=True)
class Estimate:
    """A noisy value with its confidence interval ``[lower, upper]`` at ``level`` (e.g. 0.95)."""

    value: Optional[float]
    lower: Optional[float] = None
    upper: Optional[float] = None
    level: Optional[float] = None

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "Estimate":
        return Estimate(_float(j.get("value")), _float(j.get("lower")), _float(j.get("upper")), _float(j.get("level")))


def _cell(v: Any) -> Any:
    return Estimate.from_json(v) if isinstance(v, dict) and "value" in v else v


@dataclass(frozen=True)
class QueryResult:
    """A DP release: ``rows`` map each column to a group key or an :class:`Estimate`.

    ``replay`` is True when the server answered a retry with the stored first answer (same values,
    same charge, nothing charged again).
    """

    columns: Tuple[str, ...]
    rows: Tuple[Dict[str, Any], ...]
    charge: Charge
    replay: bool
    idempotency_key: str
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(j: Mapping[str, Any], idempotency_key: str) -> "QueryResult":
        rows = tuple({k: _cell(v) for k, v in r.items()} for r in j.get("rows", []))
        return QueryResult(tuple(j.get("columns", [])), rows, Charge.from_json(j["charge"]),
                           bool(j.get("replay", False)), idempotency_key, dict(j))

    @property
    def outputs(self) -> Tuple[str, ...]:
        """The columns holding noisy estimates (the others are group keys)."""
        return tuple(c for c in self.columns if any(isinstance(r.get(c), Estimate) for r in self.rows))

    def records(self) -> List[Dict[str, Any]]:
        """One flat dict per row: group keys, each output's value and ``<output>_lower``/``_upper``."""
        outputs = set(self.outputs)
        flat = []
        for r in self.rows:
            d: Dict[str, Any] = {}
            for c in self.columns:
                v = r.get(c)
                if c in outputs:
                    e = v if isinstance(v, Estimate) else Estimate(None)
                    d[c], d[c + "_lower"], d[c + "_upper"] = e.value, e.lower, e.upper
                else:
                    d[c] = v
            flat.append(d)
        return flat

    def to_pandas(self) -> "pandas.DataFrame":
        """A DataFrame: one column per group key and per output, plus ``<output>_lower`` and
        ``<output>_upper`` for its confidence interval (needs ``pip install privet[pandas]``)."""
        pd = _pandas()
        names: List[str] = []
        outputs = set(self.outputs)
        for c in self.columns:
            names += [c, c + "_lower", c + "_upper"] if c in outputs else [c]
        return pd.DataFrame(self.records(), columns=names)


@dataclass(frozen=True)
class Mechanism:
    """One noise mechanism of an explained plan."""

    output: str
    purpose: str
    mechanism: str
    loss: PrivacyLoss
    sensitivity: Optional[float]
    noise_stddev: Optional[float]
    error95: Optional[float]

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "Mechanism":
        return Mechanism(str(j.get("output", "")), str(j.get("purpose", "")), str(j.get("mechanism", "")),
                         PrivacyLoss.from_json(j.get("loss") or {}), _float(j.get("sensitivity")),
                         _float(j.get("noiseStddev")), _float(j.get("error95")))


@dataclass(frozen=True)
class OutputError:
    """An output's expected error (half-width at 95%, or at the query's ``confidence`` when it
    was given by ``max_error``, then with its ``target``). None when it depends on a noisy
    denominator (a mean without ``max_error``): see that output's :class:`Mechanism` entries."""

    output: str
    expected_error: Optional[float]
    target: Optional[float] = None


@dataclass(frozen=True)
class Explanation:
    """What a query would cost and how accurate it would be; nothing is charged."""

    sql: str
    plan: str
    cost: PrivacyLoss
    remaining: Optional[PrivacyLoss]
    mechanisms: Tuple[Mechanism, ...]
    outputs: Tuple[OutputError, ...]
    solved: Optional[Dict[str, Any]]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(sql: str, j: Mapping[str, Any]) -> "Explanation":
        cost = j.get("cost") or {}
        mechanisms = tuple(Mechanism.from_json(m) for m in cost.get("mechanisms", []))
        solved = j.get("solved")
        outputs: List[OutputError] = []
        if isinstance(solved, dict) and solved.get("outputs"):
            outputs = [OutputError(str(o.get("output")), _float(o.get("expectedError")), _float(o.get("target")))
                       for o in solved["outputs"]]
        else:
            by_output: Dict[str, List[Mechanism]] = {}
            for m in mechanisms:
                by_output.setdefault(m.output, []).append(m)
            outputs = [OutputError(name, ms[0].error95 if len(ms) == 1 else None) for name, ms in by_output.items()]
        remaining = cost.get("remaining")
        return Explanation(sql, str(j.get("plan", "")), PrivacyLoss.from_json(cost.get("total") or {}),
                           None if remaining is None else PrivacyLoss.from_json(remaining), mechanisms,
                           tuple(outputs), solved if isinstance(solved, dict) else None, dict(j))

    @property
    def expected_errors(self) -> Dict[str, Optional[float]]:
        """Each output's expected error, by output name."""
        return {o.output: o.expected_error for o in self.outputs}

    @property
    def fits(self) -> Optional[bool]:
        """Whether the cost fits the remaining budget (the server's verdict for ``max_error`` queries)."""
        if self.solved is not None and isinstance(self.solved.get("fits"), bool):
            return bool(self.solved["fits"])
        return _fits(self.cost, self.remaining)


def _fits(cost: Optional[PrivacyLoss], remaining: Optional[PrivacyLoss]) -> Optional[bool]:
    if cost is None or remaining is None:
        return None
    pairs = [(cost.epsilon, remaining.epsilon), (cost.delta, remaining.delta), (cost.rho, remaining.rho)]
    known = [(c, r) for c, r in pairs if c is not None]
    if not known or any(r is None for _, r in known):
        return None
    return all(c <= r for c, r in known)  # type: ignore[operator]


@dataclass(frozen=True)
class Budget:
    """The caller's budget view of a dataset (an analyst: their share; the curator: the total)."""

    dataset: str
    analyst: Optional[str]
    accountant: Optional[str]
    total: PrivacyLoss
    remaining: PrivacyLoss
    charges: Optional[int]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(j: Mapping[str, Any]) -> "Budget":
        charges = j.get("charges")
        return Budget(str(j.get("dataset", "")), j.get("analyst"), j.get("accountant"),
                      PrivacyLoss.from_json(j.get("total") or {}), PrivacyLoss.from_json(j.get("remaining") or {}),
                      charges if isinstance(charges, int) else None, dict(j))

    @property
    def spent_epsilon(self) -> Optional[float]:
        """``total - remaining`` in ε (None for a ρ budget)."""
        if self.total.epsilon is None or self.remaining.epsilon is None:
            return None
        return self.total.epsilon - self.remaining.epsilon


@dataclass(frozen=True)
class WorkloadPlan:
    """Several queries explained together before anything is spent (see :meth:`Client.plan`).

    ``total`` is the basic composition of their costs (None if they mix ε and ρ); the server's
    accountant may compose more tightly. ``fits`` compares it with the smallest remaining budget
    any of the explanations reported.
    """

    explanations: Tuple[Explanation, ...]
    total: Optional[PrivacyLoss]
    remaining: Optional[PrivacyLoss]

    @property
    def fits(self) -> Optional[bool]:
        return _fits(self.total, self.remaining)

    def to_pandas(self) -> "pandas.DataFrame":
        """One row per query output: query index, output, expected error, target, query cost ε."""
        pd = _pandas()
        rows = [{"query": i, "output": o.output, "expected_error": o.expected_error, "target": o.target,
                 "epsilon": e.cost.epsilon, "rho": e.cost.rho}
                for i, e in enumerate(self.explanations) for o in e.outputs]
        return pd.DataFrame(rows, columns=["query", "output", "expected_error", "target", "epsilon", "rho"])


_J = TypeVar("_J", bound="_Job")


class _Job:
    """A job the server runs after its charge (``POST /v1/synth``, ``POST /v1/train``): charged once,
    before the job started; ``status()`` and ``wait()`` poll ``{_path}/{id}``."""

    #: The job's route on the server, e.g. ``/v1/synth``.
    _path = ""
    #: What the job is called in errors, e.g. ``synthetic-data``.
    _label = ""

    def __init__(self, client: "Client", job: str, charge: Charge, replay: bool, idempotency_key: str) -> None:
        self._client = client
        self.id = job
        self.charge = charge
        self.replay = replay
        self.idempotency_key = idempotency_key

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r}, charge={self.charge.id}, replay={self.replay})"

    def status(self) -> str:
        """``running``, ``done`` or ``failed``."""
        return str(self._client._get(f"{self._path}/{self.id}")["status"])

    def wait(self: _J, timeout: float = 600.0, poll: float = 0.5) -> _J:
        """Blocks until the job is done (raises :class:`PrivetError` if it failed, TimeoutError
        after ``timeout`` seconds)."""
        import time

        from .errors import PrivetError

        deadline = time.monotonic() + timeout
        while True:
            s = self.status()
            if s == "done":
                return self
            if s == "failed":
                raise PrivetError(f"{self._label} job {self.id} failed; its charge stands", code="job_failed")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{self._label} job {self.id} still {s} after {timeout} s")
            time.sleep(poll)


class SynthJob(_Job):
    """A synthetic-data job: charged once, before the job started; ``wait()`` then read the table."""

    _path = "/v1/synth"
    _label = "synthetic-data"

    def __init__(self, client: "Client", job: str, charge: Charge, replay: bool, idempotency_key: str) -> None:
        super().__init__(client, job, charge, replay, idempotency_key)
        self._csv: Optional[str] = None

    def csv(self) -> str:
        """The synthetic table as CSV text (with a header row); waits for the job first."""
        if self._csv is None:
            self.wait()
            self._csv = self._client._get_text(f"/v1/synth/{self.id}/data")
        return self._csv

    def rows(self) -> List[Dict[str, str]]:
        """The synthetic table's rows, as dicts of strings."""
        return list(csv.DictReader(io.StringIO(self.csv())))

    def to_pandas(self) -> "pandas.DataFrame":
        """The synthetic table as a DataFrame (waits for the job first)."""
        return _pandas().read_csv(io.StringIO(self.csv()))


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install 'privet[pandas]'") from e
    return pandas
