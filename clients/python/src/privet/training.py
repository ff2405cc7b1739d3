"""DP model training on the server (``POST /v1/train``) and prediction in the client.

A released model is public (its parameters are the output of a DP release, its encoding is public
information), so prediction is post-processing: :func:`predict` runs here, in pure Python, and
spends nothing. It reproduces ``privet predict`` (privet-models' ``Model.predict``): the same
encoding (numeric features clamped to their public bounds and scaled to [0, 1] on the grid
2^-20, rounded half to even, a missing or unparsable value at the midpoint; categorical features one-hot over their public keys; every
coordinate times ``scale``), the same sums in the same order, and the same decision rules.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .models import Charge, _Job

_GRID_BITS = 20  # privet-models' Feature.GRID_BITS
_ONE = 1 << _GRID_BITS

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .client import Client

__all__ = ["Model", "TrainJob", "predict"]

# Java's Double.parseDouble grammar (decimal forms; hexadecimal floats read as missing here).
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)")
_JAVA_SPACE = "".join(chr(c) for c in range(0x21))  # String.trim(): every char <= ' '


def _parse(value: Any) -> float:
    """A numeric feature's raw value as ``Double.parseDouble(value.trim())`` reads it (NaN if not)."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip(_JAVA_SPACE)
    if not _JAVA_DOUBLE.fullmatch(text):
        return math.nan
    text = text.rstrip("fFdD") if not text.endswith("Infinity") else text
    return float(text.replace("Infinity", "inf"))


def _text(value: Any) -> Optional[str]:
    """A categorical value as the server's text scan would give it (None when missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return str(value)


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


class Model:
    """A released model (``privet-model-1`` JSON, as ``privet train`` writes it and
    ``GET /v1/train/{id}/model`` serves it). Public: :meth:`predict` spends nothing."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        if document.get("format") != "privet-model-1":
            raise ValueError("model: not a privet model (format privet-model-1)")
        self.json: Dict[str, Any] = dict(document)
        self.kind: str = str(document["model"])
        self.method: str = str(document["method"])
        self.label: Dict[str, Any] = dict(document["label"])
        self.features: List[Dict[str, Any]] = [dict(f) for f in document["features"]]
        # as Java's FeatureEncoder computes it on reading (the document's "scale" is informative)
        self.scale: float = 1.0 / math.sqrt(len(self.features) + 1.0)
        self.privacy: Dict[str, Any] = dict(document.get("privacy") or {})
        names = ["(intercept)"]
        for f in self.features:
            if f["type"] == "numeric":
                names.append(str(f["name"]))
            else:
                names.extend(f"{f['name']}={k}" for k in f["keys"])
        self.coordinates: List[str] = names
        if self.kind == "gaussian-naive-bayes":
            nb = document["naive_bayes"]
            classes = [self.label["negative"], self.label["positive"]]
            self._log_priors = [float(nb[c]["log_prior"]) for c in classes]
            self._means = [[0.0] + [float(nb[c]["means"].get(n, 0.0)) for n in names[1:]] for c in classes]
            self._variances = [[1.0] + [float(nb[c]["variances"].get(n, 1.0)) for n in names[1:]] for c in classes]
        else:
            coefficients = document["coefficients"]
            self.coefficients: List[float] = [float(coefficients.get(n, 0.0)) for n in names]

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Model":
        return cls(json.loads(text))

    @classmethod
    def read(cls, path: Union[str, "os.PathLike[str]"]) -> "Model":
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    def write(self, path: Union[str, "os.PathLike[str]"]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.json, f, indent=2)
            f.write("\n")

    def __repr__(self) -> str:
        return f"Model({self.kind!r}, method={self.method!r}, features={[f['name'] for f in self.features]})"

    @property
    def columns(self) -> List[str]:
        """The feature columns a row needs."""
        return [str(f["name"]) for f in self.features]

    def encode(self, values: Sequence[Any]) -> List[float]:
        """The encoded vector of one row's feature values (in :attr:`columns` order); total."""
        x = [1.0]
        for f, v in zip(self.features, values):
            if f["type"] == "numeric":
                lower, upper = float(f["lower"]), float(f["upper"])
                raw = _parse(v)
                if math.isnan(raw) or upper == lower:
                    x.append(0.5)
                else:
                    c = min(upper, max(lower, raw))
                    # the fixed-point grid 2^-20, rounded half to even (Java's Math.rint)
                    x.append(math.ldexp(round((c - lower) / (upper - lower) * _ONE), -_GRID_BITS))
            else:
                keys = [str(k) for k in f["keys"]]
                one = [0.0] * len(keys)
                t = _text(v)
                if t is not None and t.strip(_JAVA_SPACE) in keys:
                    one[keys.index(t.strip(_JAVA_SPACE))] = 1.0
                x.extend(one)
        return [c * self.scale for c in x]

    def predict_one(self, values: Sequence[Any]) -> Tuple[Any, Optional[float]]:
        """``(prediction, probability)`` for one row's feature values, in :attr:`columns` order
        (the positive class's probability; None for a regression)."""
        x = self.encode(values)
        if self.kind == "linear-regression":
            s = 0.0
            for a, b in zip(self.coefficients, x):
                s += a * b
            y = max(-1.0, min(1.0, s))
            lower, upper = float(self.label["lower"]), float(self.label["upper"])
            return lower + (y + 1) / 2 * (upper - lower), None
        if self.kind == "logistic-regression":
            s = 0.0
            for a, b in zip(self.coefficients, x):
                s += a * b
            p = _sigmoid(s)
        else:
            logp = []
            for c in range(2):
                s = self._log_priors[c]
                for j in range(1, len(x)):
                    v = self._variances[c][j]
                    d = x[j] - self._means[c][j]
                    s += -0.5 * math.log(2 * math.pi * v) - d * d / (2 * v)
                logp.append(s)
            p = _sigmoid(logp[1] - logp[0])
        return (self.label["positive"] if p >= 0.5 else self.label["negative"]), p

    def predict(self, rows: Any) -> Any:
        """See :func:`predict`."""
        return predict(self, rows)


def predict(model: Any, rows: Any) -> Any:
    """Applies a released model to your own rows, in this process (post-processing: nothing is
    sent, nothing is charged), as ``privet predict`` does.

    Args:
        model: a :class:`Model`, a finished :class:`TrainJob`, the model's JSON (text or dict) or
            the path of a model file.
        rows: a pandas DataFrame, or an iterable of mappings (column name to value).

    Returns:
        for a DataFrame, a copy with a ``prediction`` column (and ``probability``, the positive
        class's, for classifiers); otherwise a list of dicts, each row with those keys added.

    Raises:
        ValueError: a row lacks one of the model's feature columns.
    """
    m = _model(model)
    classifier = m.kind != "linear-regression"
    if hasattr(rows, "to_dict") and hasattr(rows, "columns"):  # a pandas DataFrame
        missing = [c for c in m.columns if c not in rows.columns]
        if missing:
            raise ValueError(f"rows: the model's feature {missing[0]} is not a column")
        out = rows.copy()
        records = rows[m.columns].astype(object).where(rows[m.columns].notna(), None).to_dict("records")
        answers = [m.predict_one([r[c] for c in m.columns]) for r in records]
        out["prediction"] = [a[0] for a in answers]
        if classifier:
            out["probability"] = [a[1] for a in answers]
        return out
    result = []
    for i, row in enumerate(rows):
        for c in m.columns:
            if c not in row:
                raise ValueError(f"rows[{i}]: the model's feature {c} is missing")
        d = dict(row)
        prediction, probability = m.predict_one([row[c] for c in m.columns])
        d.update({"prediction": prediction, "probability": probability} if classifier else {"prediction": prediction})
        result.append(d)
    return result


def _model(model: Any) -> Model:
    if isinstance(model, Model):
        return model
    if isinstance(model, TrainJob):
        return model.model()
    if isinstance(model, Mapping):
        return Model(model)
    if isinstance(model, (str, bytes)) and model.lstrip()[:1] in ("{", b"{"):
        return Model.from_json(model)
    if isinstance(model, (str, os.PathLike)):
        return Model.read(model)
    raise TypeError("model: a Model, a TrainJob, model JSON or a model file's path is required")


def read_csv_rows(path: Union[str, "os.PathLike[str]"]) -> List[Dict[str, str]]:
    """A CSV file's rows as dicts of strings (a convenience for :func:`predict`)."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class TrainJob(_Job):
    """A model-training job: charged once, before the job started; ``wait()`` then ``model()``."""

    _path = "/v1/train"
    _label = "training"

    def __init__(self, client: "Client", job: str, charge: Charge, replay: bool, idempotency_key: str) -> None:
        super().__init__(client, job, charge, replay, idempotency_key)
        self._model: Optional[Model] = None

    def model(self) -> Model:
        """The released model (waits for the job first)."""
        if self._model is None:
            self.wait()
            self._model = Model.from_json(self._client._get_text(f"/v1/train/{self.id}/model"))
        return self._model

    def predict(self, rows: Any) -> Any:
        """``predict(self.model(), rows)``: see :func:`predict`."""
        return predict(self.model(), rows)
