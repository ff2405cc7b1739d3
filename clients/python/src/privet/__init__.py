"""Python client of the Privet differential-privacy curator (``privet serve``).

    >>> import privet
    >>> client = privet.Client("http://127.0.0.1:8080")   # key from $PRIVET_API_KEY
    >>> r = client.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25,"
    ...                  " group_selection_strategy = PUBLIC_GROUPS) sex, COUNT(*) AS people"
    ...                  " FROM adult GROUP BY sex")
    >>> r.to_pandas()          # sex, people, people_lower, people_upper

Only the standard library is required; ``to_pandas()`` needs ``pip install 'privet[pandas]'``.
"""

from .client import Client
from .errors import (
    AuthenticationError,
    BadRequest,
    BudgetExceeded,
    ConnectionFailed,
    Forbidden,
    InternalServerError,
    MethodNotAllowed,
    NotFound,
    PrivetError,
    QueryRefused,
    RateLimited,
    TooLarge,
)
from .models import (
    Budget,
    Charge,
    Column,
    Dataset,
    Estimate,
    Explanation,
    Mechanism,
    OutputError,
    PrivacyLoss,
    QueryResult,
    SynthJob,
    WorkloadPlan,
)

__version__ = "0.1.0"

__all__ = [
    "Client",
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
    "Budget",
    "Charge",
    "Column",
    "Dataset",
    "Estimate",
    "Explanation",
    "Mechanism",
    "OutputError",
    "PrivacyLoss",
    "QueryResult",
    "SynthJob",
    "WorkloadPlan",
]
