"""Query text into lexical terms: words, lowercased, stopwords dropped, deduplicated."""

from __future__ import annotations

__all__ = ["STOPWORDS", "query_terms", "split_words"]

MAX_TERMS = 32


def _is_separator(ch: str) -> bool:
    return ch.isspace() or (ch < "\x80" and not ch.isalnum())


def split_words(text: str) -> list[str]:
    """Words split at spaces and ASCII punctuation only.

    Each word is later handed to the full-text engine as a quoted phrase, which it
    tokenizes exactly as it tokenized the documents; splitting less than the engine
    would therefore never loses a match, while splitting at a character the engine
    keeps inside a token would (SQLite's Unicode tables are not Python's).
    """
    words, current = [], []
    for ch in text:
        if _is_separator(ch):
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words

STOPWORDS = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "aren't", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "can't", "cannot", "could", "couldn't", "did", "didn't", "do", "does", "doesn't", "doing", "don't", "down", "during", "each", "few", "for", "from", "further", "had", "hadn't", "has", "hasn't", "have", "haven't", "having", "he", "he'd", "he'll", "he's", "her", "here", "here's", "hers", "herself", "him", "himself", "his", "how", "how's", "i", "i'd", "i'll", "i'm", "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "itself", "let's", "me", "more", "most", "mustn't", "my", "myself", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over", "own", "same", "shan't", "she", "she'd", "she'll", "she's", "should", "shouldn't", "so", "some", "such", "than", "that", "that's", "the", "their", "theirs", "them", "themselves", "then", "there", "there's", "these", "they", "they'd", "they'll", "they're", "they've", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "wasn't", "we", "we'd", "we'll", "we're", "we've", "were", "weren't", "what", "what's", "when", "when's", "where", "where's", "which", "while", "who", "who's", "whom", "why", "why's", "with", "won't", "would", "wouldn't", "you", "you'd", "you'll", "you're", "you've", "your", "yours", "yourself", "yourselves", "s", "t", "d", "ll", "m", "re", "ve", "also", "just", "did", "does", "tell", "remind", "know", "think", "get", "got", "us", "will"]
)


def query_terms(query: str) -> list[str]:
    """Searchable words of a query, in order, at most 32.

    Stopwords are dropped because a query of common words would make BM25 rank every
    document (measured: 650-780 ms at 1M items); if only stopwords remain, they are kept.
    """
    words = split_words(query)
    # a word with no letter or digit (a symbol, a stray control character) is no content word
    kept = [w for w in words if w.lower() not in STOPWORDS and any(c.isalnum() for c in w)] or words
    # Case is left to the full-text engine's own folding (Python's and SQLite's differ
    # for some scripts); duplicates are dropped case-insensitively.
    unique = {w.lower(): w for w in reversed(kept)}
    return [unique[k] for k in dict.fromkeys(w.lower() for w in kept)][:MAX_TERMS]
