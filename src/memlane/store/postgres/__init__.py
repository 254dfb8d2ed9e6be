"""The PostgreSQL + pgvector store: many processes, one database (``pip install 'memlane[postgres]'``)."""
