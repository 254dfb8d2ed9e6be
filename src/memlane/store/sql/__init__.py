"""SQL that both backends run word for word, written once.

Shared statements are written in psycopg's format (``%s``, ``%(name)s``, ``%%``), which
PostgreSQL runs as written and SQLite runs after ``placeholders.to_qmark`` (a tokenizer
that leaves string literals, quoted names and comments alone). A backend keeps its own SQL
only where the dialect really differs (FTS5 against tsvector, ``SKIP LOCKED``, upserts,
JSON lists, id lists), and gives it to the shared mixins through the hooks that
``base.SqlStore`` declares. Nothing here imports a driver.
"""
