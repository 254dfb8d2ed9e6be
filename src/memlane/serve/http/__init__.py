"""memlane's HTTP service (FastAPI): ``create_app`` builds it, ``memlane serve`` runs it.

The names other parts build on: ``create_app``, ``app.state.memory`` (the ``Memory``),
``memlane.serve.http.auth.Principal`` and its ``principal`` dependency, and
``memlane.serve.http.errors.ApiError``.
"""

from memlane.serve.http.app import create_app
from memlane.serve.http.auth import Principal, principal
from memlane.serve.http.errors import ApiError

__all__ = ["ApiError", "Principal", "create_app", "principal"]
