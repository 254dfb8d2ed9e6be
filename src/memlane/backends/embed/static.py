"""The fast tier: a static per-token table distilled locally from the bundled MiniLM.

Recipe (version ``RECIPE``; model2vec-style, chosen by measuring session retrieval on
LongMemEval dev questions, where it matched or beat the other variants tried: mean-pooled
rows, raw input embeddings, no PCA, PCA to 128/384, other weightings):

1. run the numpy MiniLM once over every vocabulary token as ``[CLS] tok [SEP]`` and keep
   the token's own output row (beat mean-pooling the three rows on LongMemEval retrieval);
2. centre the rows and project them on their top 256 principal components;
3. scale each row by a Zipf/SIF weight ``a / (a + p(rank))`` with ``a = 1e-4`` and
   ``p(rank)`` proportional to ``1 / rank``, the rank being the token's place in the
   WordPiece vocabulary counted from ``the`` (the vocabulary is frequency-ordered);
   special and ``[unused]`` tokens get weight 0, characters and punctuation rank 1.

A text's vector is the sum of its tokens' rows (no special tokens), L2-normalised. The
table (30522 x 256 float32, ~31 MB) is built on first use in 30-50 s on 2 cores
and cached in ``$MEMLANE_CACHE_DIR`` (default ``~/.cache/memlane``) under a name holding
a hash of the model weights and the recipe, written atomically; the hash itself is kept
beside it (``WEIGHTS_HASH_FILE``, keyed by the weights' path, size, modification and change
time and inode).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlane.backends.embed.minilm import BertEncoder, load_tokenizer, model_dir
from memlane.errors import EmbeddingError

__all__ = ["RECIPE", "StaticEmbedder", "cache_dir", "derive_static_table", "ensure_static_table"]

RECIPE = "r1-tok-pca256-sif1e-4"
_DIM = 256
_SIF = 1e-4
_DERIVE_BATCH = 1024
_LOCK = threading.Lock()
_HASHES: dict[tuple[str, int, int, int, int], str] = {}
_MAX_CACHED_WORDS = 1_000_000
# Up to this many new words are tokenised in one call (no thread pool); more in a batch.
_ONE_CALL_WORDS = 256
# For ASCII text without control characters the BERT normaliser is just lower(), and the
# pre-tokeniser splits on whitespace and makes each ASCII punctuation mark its own word.
_ASCII_PIECE = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same for text whose other characters are each a blank, nothing, ASCII letters, a
# punctuation mark set apart by blanks or a letter kept, as ``StaticEmbedder._plain_char``
# finds them: what is not a blank nor ASCII punctuation runs into a word.
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_PLAIN_PIECE = re.compile(r"[^\s!-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")
# A batch's texts joined by _CUT are split in one pass (session 36): a NUL, which the BERT
# normaliser removes, so that no word of a text is ever one; the memo maps it to the id -1,
# which no token has. The memo keeps each word's ids as C ints, joined for a batch at C speed.
_CUT = "\x00"
_CUT_IDS = array("i", [-1]).tobytes()
_ASCII_CONTROL_BUT_CUT = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ASCII_PIECE_OR_CUT = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]|\x00")


def _no_wordpiece(word: str) -> tuple[int, ...]:
    raise AssertionError("not a WordPiece tokenizer")


def _wordpiece_of(vocab: dict[str, int], unk: int, longest: int) -> Callable[[str], tuple[int, ...]]:
    """WordPiece over ``vocab`` (continuing pieces prefixed ``##``): greedy longest match
    first, one ``unk`` for a word of more than ``longest`` characters or one that cannot be
    split into vocabulary entries (as ``tokenizers``' ``WordPiece.tokenize``)."""
    get = vocab.get

    def pieces(word: str) -> tuple[int, ...]:
        n = len(word)
        if n > longest:
            return (unk,)
        out: list[int] = []
        start = 0
        while start < n:
            end = n
            found = None
            while start < end:
                found = get(word[start:end] if start == 0 else "##" + word[start:end])
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (unk,)
            out.append(found)
            start = end
        return tuple(out)

    return pieces


def cache_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Return the cache directory: ``override``, else ``$MEMLANE_CACHE_DIR``, else
    ``~/.cache/memlane``."""
    if override is not None:
        return Path(override)
    env = os.environ.get("MEMLANE_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "memlane"


WEIGHTS_HASH_FILE = "weights-sha256.json"
"""The cache directory's note of the weights' SHA-256 and the file's path, size,
modification time, change time and inode it was taken at: hashing the 91 MB file cost
every process about 75 ms of CPU on its first embedding (a ``memlane search`` from the
shell paid it each time; session 35)."""

CACHE_FILE_MODE = 0o644
"""The mode of the table and the note: every user of a shared cache directory reads them.
Session 37 (rev37): written to ``tempfile.mkstemp`` files, they were ``0600`` whatever the
umask, so another user of the cache read neither: each of its processes hashed the weights
again, found no table and derived it again (30-50 s). Nothing in them is private (a table
derived from the public weights, their hash and path)."""


def _share(fd: int, name: str) -> None:
    """Give the cache file open as ``fd`` (``name``) ``CACHE_FILE_MODE`` where its file
    system keeps modes. One that refuses a mode change (``EPERM``: vfat or exFAT, a CIFS
    share without Unix extensions) keeps its own, and the file is written all the same
    (session 38, rev38: the table's and the note's ``chmod`` raised there, before the file
    was opened: its descriptor was left open, no table was ever saved, and every embedding
    derived it again and failed; the note was never written)."""
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, CACHE_FILE_MODE)
        else:  # (Windows before Python 3.13: only the read-only bit is a mode there)
            os.chmod(name, CACHE_FILE_MODE)
    except OSError:
        pass


_NOTE_KEY = ("path", "size", "mtime_ns", "ctime_ns", "inode")
"""What a note must name as the file's own to be taken (``_weights_hash``). Session 36: path,
size and modification time alone matched weights replaced by another version of the same
size whose modification time was kept (``cp -p``, ``tar``, a reproducible build's fixed
time): the old weights' table was taken. The change time is set by no tool (setting the
modification time sets it to now) and a file copied or renamed over is another inode."""


NOTE_ENTRIES = 8
"""How many installs' weights the note holds. Session 36 (fix36b): it held one, so two
installs with different weights (two virtual environments) sharing one cache directory
overwrote each other's note, and each process of either hashed its weights again."""


def _weights_hash(path: Path, directory: Path) -> str:
    """The SHA-256 of ``path``: from this process's memory, else from ``directory``'s note when
    one of its entries names the same file as it is (``_NOTE_KEY``) and holds a SHA-256,
    else read and hashed (and the note written, atomically, its other entries kept; a
    cache directory that cannot be written is no error)."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    if key in _HASHES:
        return _HASHES[key]
    note = directory / WEIGHTS_HASH_FILE
    for entry in _note_entries(note):
        if [entry.get(k) for k in _NOTE_KEY] == list(key):
            _HASHES[key] = entry["sha256"]
            return _HASHES[key]
    with path.open("rb") as fh:
        _HASHES[key] = digest = hashlib.file_digest(fh, "sha256").hexdigest()
    _write_note(note, {**dict(zip(_NOTE_KEY, key, strict=True)), "sha256": digest})
    return digest


def _note_entries(note: Path) -> list[dict[str, Any]]:
    """The note's entries, newest first: the note itself (what a note of one entry, session
    35's, is, and what an older memlane reads) and its ``others``; an entry without a
    SHA-256 (``_a_digest``), or a note that cannot be read, gives none."""
    import json

    try:
        held = json.loads(note.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []  # no note, or one that cannot be read: hash the file
    if not isinstance(held, dict):
        return []
    others = held.get("others")
    entries = [held, *(others if isinstance(others, list) else [])]
    return [{k: e.get(k) for k in (*_NOTE_KEY, "sha256")} for e in entries
            if isinstance(e, dict) and _a_digest(e.get("sha256"))]


def _write_note(note: Path, entry: dict[str, Any]) -> None:
    """Write ``entry`` as the note's newest, the entries there kept after it (read again
    now: another process may have written since), at most ``NOTE_ENTRIES`` in all; to a
    temporary file renamed over the note, so a reader never sees half of one. Two processes
    writing at once keep one's entry: the other's install hashes once more."""
    import json

    rest = [e for e in _note_entries(note) if e != entry][:NOTE_ENTRIES - 1]
    text = json.dumps({**entry, "others": rest})
    directory = note.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=note.stem + ".", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                _share(fh.fileno(), tmp)
                fh.write(text)
            os.replace(tmp, note)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only cache: the next process hashes again


def _a_digest(value: object) -> bool:
    """Whether ``value`` is a SHA-256 as ``hexdigest`` writes it (64 of ``0-9a-f``): a note's
    other text (``"../"``, a hand's edit) would name the table (session 36)."""
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def static_table_path(directory: str | os.PathLike[str] | None = None) -> Path:
    """Where the table for the installed weights and the current recipe lives (or will)."""
    weights = model_dir() / "model.safetensors"
    where = cache_dir(directory)
    return where / f"static-minilm-l6-v2-{_weights_hash(weights, where)[:16]}-{RECIPE}.npy"


def _zipf_weights(vocab: dict[str, int], size: int) -> np.ndarray:
    """SIF weight per token id from its rank in the frequency-ordered vocabulary."""
    ids = np.arange(size)
    first_word = vocab.get("the", 0)
    rank = np.where(ids >= first_word, ids - first_word + 1, 1).astype(np.float64)
    inv = 1.0 / np.arange(1, size + 1, dtype=np.float64)
    p = (1.0 / rank) / inv.sum()
    w = _SIF / (_SIF + p)
    for token, idx in vocab.items():
        if idx < size and token.startswith("[") and token.endswith("]"):
            w[idx] = 0.0  # [PAD] [UNK] [CLS] [SEP] [MASK] [unusedN]
    return w


def derive_static_table(progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Compute the static table from the bundled MiniLM (about a minute on 2 cores).

    ``progress(done, total)`` is called after each batch of vocabulary tokens.
    """
    directory = model_dir()
    encoder = BertEncoder(directory)
    tok = load_tokenizer(directory, None)
    vocab: dict[str, int] = tok.get_vocab(with_added_tokens=True)
    size = encoder.word.shape[0]
    cls_id, sep_id = vocab.get("[CLS]"), vocab.get("[SEP]")
    if cls_id is None or sep_id is None:
        raise EmbeddingError("tokenizer.json has no [CLS]/[SEP] tokens")
    rows = np.empty((size, encoder.hidden), dtype=np.float32)
    ones = np.ones((_DERIVE_BATCH, 3), dtype=np.float32)
    for start in range(0, size, _DERIVE_BATCH):
        ids = np.arange(start, min(size, start + _DERIVE_BATCH))
        batch = np.stack([np.full(len(ids), cls_id), ids, np.full(len(ids), sep_id)], axis=1)
        rows[ids] = encoder.forward(batch, ones[: len(ids)])[:, 1]
        if progress is not None:
            progress(int(ids[-1]) + 1, size)
    x = rows.astype(np.float64)
    x -= x.mean(axis=0)
    evals, evecs = np.linalg.eigh(x.T @ x)
    top = evecs[:, np.argsort(evals)[::-1][:_DIM]]
    top *= np.sign(top[np.abs(top).argmax(axis=0), np.arange(top.shape[1])])  # fix signs
    table = (x @ top) * _zipf_weights(vocab, size)[:, None]
    return np.ascontiguousarray(table, dtype=np.float32)


def _load_table(path: Path, mmap: bool = False) -> np.ndarray | None:
    try:
        table = np.load(path, allow_pickle=False, mmap_mode="r" if mmap else None)
    except (OSError, ValueError, EOFError):
        return None
    if table.ndim != 2 or table.shape[1] != _DIM or table.dtype != np.float32:
        return None
    return table


def ensure_static_table(
    directory: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Build the static table if it is not cached yet; return its path.

    Safe to call from several threads or processes at once: each writer saves to a
    temporary file in the cache directory and renames it into place.
    """
    path = static_table_path(directory)
    with _LOCK:
        if _load_table(path, mmap=True) is not None:  # reads the header only
            return path
        _save_table(path, derive_static_table(progress))
    return path


def _save_table(path: Path, table: np.ndarray) -> None:
    """Write ``table`` to ``path`` atomically: a temporary file in the same directory,
    synced, then renamed into place; on any failure the temporary file is removed and
    ``path`` is left as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.stem + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            _share(fh.fileno(), tmp)
            np.save(fh, table, allow_pickle=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class StaticEmbedder:
    """Sum of per-token static vectors, L2-normalised: tens of thousands of texts/s.

    Args:
        cache_dir: where the derived table lives (default ``$MEMLANE_CACHE_DIR`` or
            ``~/.cache/memlane``); it is derived there on first use if missing.
        chunk_tokens: tokens gathered per numpy step (bounds temporary memory).

    Construction only checks that the model package is installed; the table is loaded
    (or derived, about a minute) on the first :meth:`embed_batch`.
    """

    dim = _DIM

    def __init__(
        self, cache_dir: str | os.PathLike[str] | None = None, chunk_tokens: int = 4096
    ) -> None:
        if chunk_tokens < 1:
            raise ValueError(f"chunk_tokens must be >= 1, got {chunk_tokens}")
        self.name = f"static-minilm-l6-v2-{RECIPE}"
        self.cache_dir = cache_dir
        self.chunk_tokens = int(chunk_tokens)
        self._dir = model_dir()
        self._lock = threading.Lock()
        self._table: np.ndarray | None = None
        self._tokenizer: Any = None
        self._word_ids: dict[str, bytes] = {_CUT: _CUT_IDS}
        self._pieces: Callable[[str], tuple[int, ...]] | None = None
        self._plain_chars: dict[str, str | None] = {}
        self._is_bert: bool | None = None

    def _load(self) -> tuple[np.ndarray, Any]:
        with self._lock:
            if self._table is None:
                path = ensure_static_table(self.cache_dir)
                table = _load_table(path)
                if table is None:
                    raise EmbeddingError(f"static table at {path} is unreadable; delete it")
                self._tokenizer = load_tokenizer(self._dir, None)
                self._table = table
            return self._table, self._tokenizer

    def _split(self, text: str) -> list[str]:
        """Normalise and pre-tokenise like the BERT tokenizer (a regex for plain ASCII)."""
        if text.isascii():
            if not _ASCII_CONTROL.search(text):
                return _ASCII_PIECE.findall(text.lower())
        elif not _ASCII_CONTROL.search(text):
            plain = self._plain_chars
            for ch in set(_NON_ASCII.findall(text)):
                as_plain = plain[ch] if ch in plain else self._plain_char(ch)
                if as_plain is None:
                    break
                if as_plain != ch:
                    text = text.replace(ch, as_plain)
            else:
                return _PLAIN_PIECE.findall(text.lower())
        tok = self._tokenizer
        return [
            w for w, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(text))
        ]

    def _plain_char(self, ch: str) -> str | None:
        """What the BERT normaliser and pre-tokeniser make of the non-ASCII character ``ch``
        wherever it stands, asked of the library once (and remembered): a blank (" " for a
        no-break space), nothing (a zero-width space), ASCII letters and digits ("e" for
        "é", "dz" for "Ǆ"), a punctuation mark of its own (" · ", " ’ ", " — ") or a letter
        kept in its word ("ß", "°", an emoji). None for anything else: a Chinese character
        (set apart with blanks), a character kept that Python's ``lower()`` or ``\\s`` reads
        otherwise, a combining mark (whose place NFD may change). Each of these is the
        character's own doing, so a text of ASCII and such characters, each replaced so, is
        normalised by ``lower()`` and split by :data:`_PLAIN_PIECE` as the library would, 5
        times faster than its call (every summary's header holds "·"; session 25, the cost).
        ``tests/backends/test_embed_static.py`` holds the two equal."""
        import unicodedata

        tok = self._tokenizer
        out: str | None = None
        if self._bert_split() and unicodedata.category(ch) not in ("Mn", "Mc", "Me"):
            norm = tok.normalizer.normalize_str(ch)
            pieces = [w for w, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(f"a{ch}a"))]
            if norm == "" and pieces == ["aa"]:
                out = ""
            elif norm == " " and pieces == ["a", "a"]:
                out = " "
            elif norm.isascii() and norm.isalnum() and norm == norm.lower() and pieces == [f"a{norm}a"]:
                out = norm
            elif norm != ch or ch.isspace() or ch.lower() != ch:
                pass  # left as it is, Python's ``lower()`` or ``\\s`` would read it otherwise
            elif pieces == ["a", ch, "a"]:
                out = f" {ch} "
            elif pieces == [f"a{ch}a"]:
                out = ch
        self._plain_chars[ch] = out
        return out

    def _bert_split(self) -> bool:
        """Whether the tokenizer normalises and pre-tokenises as BERT does (what
        :meth:`_plain_char` follows)."""
        if self._is_bert is None:
            import json

            spec = json.loads(self._tokenizer.to_str())
            self._is_bert = ((spec.get("normalizer") or {}).get("type") == "BertNormalizer"
                             and (spec.get("pre_tokenizer") or {}).get("type") == "BertPreTokenizer")
        return self._is_bert

    def _wordpiece(self) -> Callable[[str], tuple[int, ...]] | None:
        """The tokenizer's WordPiece model as a Python function of one word, for the pieces
        :data:`_ASCII_PIECE` matches whole (a run of lower-case letters and digits, or one
        ASCII punctuation mark: what the BERT normaliser and pre-tokeniser leave as they
        are); None when the tokenizer is not the WordPiece this follows. Greedy longest
        match first, as ``tokenizers`` does: a word longer than its ``max_input_chars_per_word``
        or with a part no vocabulary entry starts is one unknown token. The library's
        ``encode`` costs ~12 us a word, almost all of it the call (session 22, the cost);
        ``tests/backends/test_static_wordpiece.py`` holds the two equal."""
        if self._pieces is None:
            self._pieces = _no_wordpiece
            try:
                import json

                spec = json.loads(self._tokenizer.to_str())["model"]
                vocab: dict[str, int] = self._tokenizer.get_vocab()
                if (spec.get("type") == "WordPiece" and spec.get("continuing_subword_prefix") == "##"
                        and spec.get("unk_token") in vocab):
                    self._pieces = _wordpiece_of(vocab, vocab[spec["unk_token"]],
                                                 int(spec.get("max_input_chars_per_word", 100)))
            except Exception:  # noqa: BLE001 - any other tokenizer: the library's own path
                self._pieces = _no_wordpiece
        return None if self._pieces is _no_wordpiece else self._pieces

    def _learn_words(self, word_lists: list[list[str]]) -> None:
        """Tokenise and memoise the words of ``word_lists`` not seen before."""
        cache = self._word_ids
        missing = list({w for ws in word_lists for w in ws if w not in cache})
        if len(cache) + len(missing) > _MAX_CACHED_WORDS:
            cache.clear()
            cache[_CUT] = _CUT_IDS  # where a batch's texts end (:meth:`_ids`)
            missing = list({w for ws in word_lists for w in ws if w not in cache})
        pieces_of = self._wordpiece()
        if pieces_of is not None:  # the plain ASCII pieces, in Python: no call into the library
            cache.update((w, array("i", pieces_of(w)).tobytes()) for w in missing if _ASCII_PIECE.fullmatch(w))
            missing = [w for w in missing if w not in cache]
            if not missing:
                return
        try:
            if len(missing) <= _ONE_CALL_WORDS:
                # One pre-tokenised sequence, split back by word: encode_batch hands even two
                # words to the tokenizer's thread pool, whose wake-up costs ~1 ms on a busy
                # machine (a query's few new words paid it on every search).
                enc = self._tokenizer.encode(missing, is_pretokenized=True,
                                             add_special_tokens=False)
                pieces: list[list[int]] = [[] for _ in missing]
                for token, word in zip(enc.ids, enc.word_ids, strict=True):
                    pieces[word].append(token)
                ids = [tuple(p) for p in pieces]
            else:
                encs = self._tokenizer.encode_batch(
                    [[w] for w in missing], is_pretokenized=True, add_special_tokens=False
                )
                ids = [tuple(e.ids) for e in encs]
        except Exception as exc:  # tokenizers raises plain Exceptions
            raise EmbeddingError(f"tokenising failed: {exc}") from exc
        cache.update(zip(missing, (array("i", p).tobytes() for p in ids)))

    def _ids(self, texts: list[str]) -> tuple[np.ndarray, list[int]]:
        """The concatenated WordPiece ids of ``texts`` (at least one) and where each text's
        end in them, the work done once per batch rather than once per text (session 36):
        a batch of plain ASCII text without control characters is lower-cased and split in
        one pass, each text's words ending at a :data:`_CUT` (which no such text holds, and
        which the memo maps to the id -1); other batches are split text by text. The words'
        ids are joined as bytes and the cuts found and taken out by numpy."""
        n = len(texts)
        joined = _CUT.join(texts)
        if joined.isascii() and joined.count(_CUT) == n - 1 and not _ASCII_CONTROL_BUT_CUT.search(joined):
            words = _ASCII_PIECE_OR_CUT.findall(joined.lower())
        else:
            words = []
            for text in texts:
                words.extend(self._split(text))  # never a NUL: the normaliser removes it
                words.append(_CUT)
            words.pop()
        with self._lock:
            get = self._word_ids.__getitem__
            try:  # the common case: every word seen before
                seqs = list(map(get, words))
            except KeyError:
                self._learn_words([words])
                seqs = list(map(get, words))
        ids = np.frombuffer(b"".join(seqs), dtype=np.intc)
        if n == 1:
            return ids.astype(np.intp), [len(ids)]
        marks = np.flatnonzero(ids < 0)  # the n - 1 cuts
        flat = np.delete(ids, marks).astype(np.intp)
        return flat, [*(marks - np.arange(n - 1)).tolist(), len(flat)]

    def token_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Return the concatenated WordPiece ids of ``texts`` and each text's id count.

        Words are tokenised once and memoised, so this matches the ``tokenizers`` output
        (no special tokens, no truncation) at several times its speed.
        """
        texts = list(texts)
        if not texts:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64)
        if self._table is None:
            self._load()
        flat, ends = self._ids(texts)
        return flat, np.diff(np.asarray(ends, dtype=np.int64), prepend=0)

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 ``(len(texts), 256)`` unit rows; a zero row for an empty text."""
        texts = list(texts)
        n = len(texts)
        out = np.zeros((n, self.dim), dtype=np.float32)
        if not n:
            return out
        table = self._table if self._table is not None else self._load()[0]
        flat, ends = self._ids(texts)
        add = np.add.reduce
        # One gather per block of texts, then a reduce per text: ~10x faster than
        # np.add.reduceat along axis 0, which numpy runs row by row. (One reduce over the
        # whole batch, padded or by np.add.at, sums in the same order but was not faster
        # for the summarizer's batches of about ten texts; session 36.)
        chunk = self.chunk_tokens
        row, begin = 0, 0
        while row < n:
            stop = max(row + 1, bisect_right(ends, begin + chunk, row))
            gathered = table[flat[begin : ends[stop - 1]]]
            s = 0
            for i in range(row, stop):
                e = ends[i] - begin
                if e > s:
                    add(gathered[s:e], axis=0, out=out[i])
                s = e
            begin = ends[stop - 1]
            row = stop
        # np.linalg.norm(out, axis=1, keepdims=True) as numpy computes it, without its checks
        norms = np.sqrt(add(out * out, axis=1, keepdims=True))
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def __repr__(self) -> str:
        return f"StaticEmbedder(cache_dir={self.cache_dir!r})"
