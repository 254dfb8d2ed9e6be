"""The memory inspector: server-rendered pages over the service (``memlane serve`` → ``/``).

``mount(app)`` (in ``pages``) adds the pages under ``/ui``, their static files and the
redirect from ``/``. ``views`` holds what each page shows as plain data.
"""
