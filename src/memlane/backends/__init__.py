"""Model backends of memlane: embedders (``memlane.backends.embed``) and friends."""
