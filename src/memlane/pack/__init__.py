"""Packing search hits into a token-budgeted context."""
