"""memlane: long-term memory for LLM agents and chat apps.

Give it every message; it cuts them into sessions, indexes closed sessions, and answers
questions with hybrid lexical + vector search. The default is embedded and offline: one
SQLite file and a local embedding model, no server, no API key, no network.
"""

from memlane.client import Client, RemoteError
from memlane.config import Config, EmbeddingConfig, IngestConfig, SearchConfig, load_config
from memlane.errors import (
    BackendError,
    BackendUnavailable,
    ConfigError,
    ConflictError,
    EmbeddingError,
    ImportFormatError,
    MemlaneError,
    MigrationError,
    NotFoundError,
    StoreError,
    ValidationError,
)
from memlane.memory import Memory
from memlane.protocols import Embedder, TokenCounter, Tracer
from memlane.types import EraseReport, Hit, ImportReport, IndexReport, Item, Message, Session

__version__ = "0.1.0"

__all__ = [
    "BackendError",
    "BackendUnavailable",
    "Client",
    "Config",
    "ConfigError",
    "ConflictError",
    "Embedder",
    "EmbeddingConfig",
    "EmbeddingError",
    "EraseReport",
    "Hit",
    "ImportFormatError",
    "ImportReport",
    "IndexReport",
    "IngestConfig",
    "Item",
    "MemlaneError",
    "Memory",
    "Message",
    "MigrationError",
    "NotFoundError",
    "RemoteError",
    "SearchConfig",
    "Session",
    "StoreError",
    "TokenCounter",
    "Tracer",
    "ValidationError",
    "__version__",
    "load_config",
]
