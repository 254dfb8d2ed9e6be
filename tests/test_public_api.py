"""The public surface: ``__all__`` lists exactly the public names, and they import."""

import memlane


def test_all_matches_public_names():
    public = {n for n in dir(memlane) if not n.startswith("_")} - {
        # submodules are importable but not re-exported names
        "config", "errors", "memory", "protocols", "types", "store", "ingest", "index",
        "retrieve", "pack", "backends", "serve", "bench", "testing", "demo", "client", "textcaches",
        "clip", "cursor",
    }
    assert set(memlane.__all__) - {"__version__"} == public


def test_every_exported_name_resolves():
    for name in memlane.__all__:
        assert getattr(memlane, name) is not None


def test_error_tree():
    assert issubclass(memlane.ImportFormatError, memlane.ValidationError)
    assert issubclass(memlane.ValidationError, memlane.MemlaneError)
    assert issubclass(memlane.MigrationError, memlane.StoreError)
    assert issubclass(memlane.BackendUnavailable, memlane.BackendError)
