"""The client against the server's published contract, docs/openapi.json.

``READS`` lists every route the client calls and every field it reads or sends there; each must
exist in the OpenAPI document, so a server change that renames or drops one of them fails here
(and CI). Two checks keep ``READS`` honest: every ``/v1/...`` path in the client's source is
listed, and every JSON key the client's source reads (``x["key"]``, ``x.get("key")``) is listed.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import privet

REPO = Path(__file__).resolve().parents[3]
SOURCE = REPO / "clients" / "python" / "src" / "privet"  # the source, installed or not
LOSS = ["measure", "epsilon", "delta", "rho"]
CHARGE = ["id", "dataset", "analyst", "time", "query"] + ["cost[]." + f for f in LOSS]
ERROR = ["error.code", "error.message", "error.line", "error.column"]

# (method, path template, status): the fields the client reads in that answer. "a.b" is a
# property of a property, "a[]" an array's items, "a{}" an object's additional properties;
# "#Name" refers to a component schema.
READS: Dict[Tuple[str, str, str], List[str]] = {
    ("GET", "/v1/health", "200"): ["status"],
    ("GET", "/v1/datasets", "200"): ["[].name", "[].privacyUnit", "[].columns[].name", "[].columns[].type",
                                     "[].publicKeys", "[].publicBounds{}.lower", "[].publicBounds{}.upper"],
    ("POST", "/v1/explain", "200"): ["plan", "cost.total.measure", "cost.remaining.epsilon"]
    + ["cost.mechanisms[]." + f for f in ("output", "purpose", "mechanism", "sensitivity", "noiseStddev", "error95")]
    + ["cost.mechanisms[].loss." + f for f in LOSS]
    + ["solved.fits", "solved.outputs[].output", "solved.outputs[].target", "solved.outputs[].expectedError"],
    ("POST", "/v1/query", "200"): ["columns", "rows", "replay"] + ["charge." + f for f in CHARGE],
    ("GET", "/v1/budget", "200"): ["dataset", "analyst", "accountant", "charges"]
    + ["total." + f for f in LOSS] + ["remaining." + f for f in LOSS],
    ("GET", "/v1/history", "200"): ["[]." + f for f in CHARGE],
    ("POST", "/v1/synth", "202"): ["job", "replay"] + ["charge." + f for f in CHARGE],
    ("GET", "/v1/synth/{id}", "200"): ["status"],
    ("GET", "/v1/synth/{id}/data", "200"): [],
}
# A release's rows map output columns to Estimates (Release.rows is free-form in the document).
COMPONENTS: Dict[str, List[str]] = {"#Estimate": ["value", "lower", "upper", "level"], "#Error": ERROR}
# What the client sends: request body properties and headers.
SENDS: Dict[Tuple[str, str], List[str]] = {
    ("POST", "/v1/query"): ["sql", "header:Idempotency-Key"],
    ("POST", "/v1/explain"): ["sql"],
    ("POST", "/v1/synth"): ["dataset", "domain", "epsilon", "delta", "method", "noise", "queries",
                            "header:Idempotency-Key"],
    ("GET", "/v1/budget"): ["query:dataset"],
    ("GET", "/v1/history"): ["query:dataset"],
}
# The error answers the client turns into exceptions, by status; 429's Retry-After header.
ERROR_STATUSES = {"400", "401", "404", "409", "422", "429"}


def document() -> Dict[str, Any]:
    return json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))


def resolve(doc: Dict[str, Any], schema: Dict[str, Any]) -> Dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = doc["components"]["schemas"][name]
    return schema


def walk(doc: Dict[str, Any], schema: Dict[str, Any], field: str) -> Dict[str, Any]:
    """The schema at a field path (see READS), or AssertionError naming what is missing."""
    for step in re.findall(r"\[\]|\{\}|[^.\[\]{}]+", field):
        schema = resolve(doc, schema)
        if step == "[]":
            assert schema.get("type") == "array" and "items" in schema, f"{field}: not an array"
            schema = schema["items"]
        elif step == "{}":
            extra = schema.get("additionalProperties")
            assert isinstance(extra, dict), f"{field}: no additionalProperties schema"
            schema = extra
        else:
            props = schema.get("properties", {})
            assert step in props, f"{field}: no property {step!r} (has {sorted(props)})"
            schema = props[step]
    return resolve(doc, schema)


def response_schema(doc: Dict[str, Any], method: str, path: str, status: str) -> Dict[str, Any]:
    assert path in doc["paths"], f"{method} {path}: not in docs/openapi.json"
    op = doc["paths"][path].get(method.lower())
    assert op is not None, f"{method} {path}: no such operation in docs/openapi.json"
    assert status in op["responses"], f"{method} {path}: no {status} answer"
    content = op["responses"][status].get("content", {})
    if "application/json" in content:
        return content["application/json"]["schema"]
    assert content, f"{method} {path} {status}: no content"
    return next(iter(content.values()))["schema"]


def test_everyFieldTheClientReads_isInTheDocument() -> None:
    doc = document()
    for (method, path, status), fields in READS.items():
        schema = response_schema(doc, method, path, status)
        for field in fields:
            walk(doc, schema, f"{field}")
    for ref, fields in COMPONENTS.items():
        for field in fields:
            walk(doc, doc["components"]["schemas"][ref[1:]], field)


def test_everythingTheClientSends_isInTheDocument() -> None:
    doc = document()
    for (method, path), fields in SENDS.items():
        op = doc["paths"][path][method.lower()]
        params = {(p["in"], p["name"]) for p in op.get("parameters", [])}
        for field in fields:
            kind, _, name = field.rpartition(":")
            if kind:
                assert (kind, name) in params, f"{method} {path}: no {kind} parameter {name}"
            else:
                body = op["requestBody"]["content"]["application/json"]["schema"]
                walk(doc, body, name)


def test_errorAnswers_useTheErrorSchema_and429CarriesRetryAfter() -> None:
    doc = document()
    codes = set(walk(doc, doc["components"]["schemas"]["Error"], "error.code").get("enum", []))
    assert set(privet.errors.ERROR_CODES) <= codes, "every code the client maps is a documented code"
    assert codes <= set(privet.errors.ERROR_CODES), "every documented code has its exception class"
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, answer in op["responses"].items():
                if status in ERROR_STATUSES:
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema.get("$ref", "").endswith("/Error"), f"{method} {path} {status}"
                    if status == "429":
                        assert "Retry-After" in answer.get("headers", {}), f"{method} {path} 429: Retry-After"


def _source_paths() -> Set[str]:
    text = (SOURCE / "client.py").read_text() + (SOURCE / "models.py").read_text()
    return {re.sub(r"\{[^}]*\}", "{id}", m) for m in re.findall(r"f?\"(/v1/[^\"?]*)", text)}


def _source_keys() -> Set[str]:
    """String keys the client's source reads from JSON: x["k"] (loads only) and x.get("k")."""
    keys: Set[str] = set()
    for file in ("client.py", "models.py", "errors.py"):
        for node in ast.walk(ast.parse((SOURCE / file).read_text())):
            if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                    and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                keys.add(node.slice.value)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                if not (isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "environ"):
                    keys.add(node.args[0].value)
    return keys


def test_readsTable_coversEveryRouteInTheClientSource() -> None:
    listed = {path for _, path, _ in READS}
    assert _source_paths() <= listed, f"routes used but not listed in READS: {_source_paths() - listed}"


def test_readsTable_coversEveryKeyTheClientSourceReads() -> None:
    listed = {re.split(r"[.\[\]{}]+", f.strip("[]."))[-1] for fields in list(READS.values())
              + list(COMPONENTS.values()) for f in fields}
    listed |= {step for fields in list(READS.values()) + list(COMPONENTS.values()) for f in fields
               for step in re.findall(r"[A-Za-z0-9_]+", f)}
    missing = _source_keys() - listed
    assert not missing, f"keys the client reads but READS does not list (add them there): {missing}"
