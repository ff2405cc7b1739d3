"""Exceptions, one per error code of the server's JSON error ``{"error": {"code", "message"}}``.

The server never puts a data value in an error (docs/proofs/threat-model.md): a message names a
parameter or a SQL position, so it is safe to log and to show.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type

__all__ = [
    "PrivetError",
    "BadRequest",
    "AuthenticationError",
    "Forbidden",
    "NotFound",
    "MethodNotAllowed",
    "BudgetExceeded",
    "TooLarge",
    "QueryRefused",
    "RateLimited",
    "InternalServerError",
    "ConnectionFailed",
]


class PrivetError(Exception):
    """Base class of every error this client raises.

    Attributes:
        code: the server's error code (``"refused"``, ``"budget_exceeded"``, ...), or
            ``"connection"`` when no answer arrived.
        status: the HTTP status, or ``None`` when no answer arrived.
        message: the server's message.
    """

    code: str = "error"

    def __init__(self, message: str, *, status: Optional[int] = None, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" if self.status is None else f"{self.status} {self.code}: {self.message}"


class BadRequest(PrivetError):
    """400 ``bad_request``: a malformed request; the message names the parameter."""

    code = "bad_request"


class AuthenticationError(PrivetError):
    """401 ``unauthorized``: a missing, unknown or revoked API key."""

    code = "unauthorized"


class Forbidden(PrivetError):
    """403 ``forbidden``: the route needs the curator role."""

    code = "forbidden"


class NotFound(PrivetError):
    """404 ``not_found``: no such dataset (or none granted to you: the same answer), job or route."""

    code = "not_found"


class MethodNotAllowed(PrivetError):
    """405 ``method_not_allowed``."""

    code = "method_not_allowed"


class BudgetExceeded(PrivetError):
    """409 ``budget_exceeded``: the dataset's total or your share does not cover it; nothing charged."""

    code = "budget_exceeded"


class TooLarge(PrivetError):
    """413 ``too_large``: the request body exceeds the server's limit (64 KiB)."""

    code = "too_large"


class QueryRefused(PrivetError):
    """422 ``refused``: not a valid or safe DP query; nothing charged.

    Attributes:
        line: the 1-based line of the SQL position the refusal names, or ``None``.
        column: the 1-based column of that position, or ``None``.
    """

    code = "refused"

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message, status=status, code=code)
        self.line = line
        self.column = column


class RateLimited(PrivetError):
    """429 ``rate_limited``: the server is busy, or this address failed to authenticate too often.

    Attributes:
        retry_after: seconds to wait before retrying (the ``Retry-After`` header), or ``None``.
    """

    code = "rate_limited"

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message, status=status, code=code)
        self.retry_after = retry_after


class InternalServerError(PrivetError):
    """500 ``internal``: an unexpected failure; a charge already committed stands."""

    code = "internal"


class ConnectionFailed(PrivetError):
    """No answer from the server after the client's retries (refused, reset or timed out)."""

    code = "connection"


_BY_CODE: Dict[str, Type[PrivetError]] = {
    cls.code: cls
    for cls in (
        BadRequest,
        AuthenticationError,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        BudgetExceeded,
        TooLarge,
        QueryRefused,
        RateLimited,
        InternalServerError,
    )
}

ERROR_CODES = tuple(_BY_CODE)
"""Every server error code this client maps to its own exception class."""


def error_from_response(status: int, body: Any, headers: Mapping[str, str]) -> PrivetError:
    """The exception for an HTTP error answer (its JSON body already parsed, or ``None``)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return PrivetError(f"HTTP {status} without a Privet error body", status=status, code="http")
    code = str(error.get("code", "error"))
    message = str(error.get("message", ""))
    cls = _BY_CODE.get(code, PrivetError)
    if cls is QueryRefused:
        return QueryRefused(message, status=status, code=code, line=_int(error.get("line")),
                            column=_int(error.get("column")))
    if cls is RateLimited:
        return RateLimited(message, status=status, code=code, retry_after=_retry_after(headers))
    return cls(message, status=status, code=code)


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    for name, value in headers.items():
        if name.lower() == "retry-after":
            try:
                return float(value)
            except ValueError:
                return None  # an HTTP date: not sent by privet serve
    return None
