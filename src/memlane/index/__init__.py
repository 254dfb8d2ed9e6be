"""Indexing: turning closed sessions into searchable memory items."""
