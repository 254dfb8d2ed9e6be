"""Retrieval: query terms, lexical and vector candidates, fusion, hits."""
