"""Retrieval benchmarks for memlane: LongMemEval and LoCoMo.

- ``datasets``: loaders reading the upstream files as they are (``.json``, ``.json.gz``,
  ``.json.xz``) into typed records.
- ``metrics``: LongMemEval's official retrieval metrics (recall_any@k, recall_all@k,
  ndcg_any@k) as pure functions, and their aggregation per question type.
- ``longmemeval`` / ``locomo``: the runners (a fresh memory per question or conversation)
  and the ``bm25`` / ``dense`` baselines in ``baselines``.
- ``report``: the rankings files (the README, "Benchmarks"),
  ``report.json``, ``report.md`` and plots.
- ``cli``: the ``bench`` click group (``memlane bench longmemeval|locomo``).
"""
