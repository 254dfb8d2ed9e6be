"""The embedded SQLite store (the default)."""
