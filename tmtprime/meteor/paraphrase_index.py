"""Compiling a Meteor paraphrase table into the index that :mod:`tmtprime.meteor.paraphrase` maps.

Index layout (one directory, written to a temporary name and renamed into
place, so a reader never sees a half-written index):

* ``vocab.txt`` — the words, one per line, in id order;
* ``phrase_hash.npy`` (uint64) — 64-bit hashes of every distinct phrase
  (sources and paraphrases), sorted; a phrase's id is its position here;
* ``bucket_off.npy`` (uint32) — where each of the 2**k equal slices of the
  hash range starts in ``phrase_hash`` (one to two phrases per slice);
* ``phrase_words.npy`` (uint16, or uint32 past 65,535 words) — each phrase's
  word ids, padded with the dtype's maximum to the longest phrase;
* ``src_off.npy`` (uint32) — CSR offsets: the pairs of phrase ``i`` are
  ``pair_tgt/pair_prob[src_off[i]:src_off[i + 1]]``, in table order;
* ``pair_tgt.npy`` (uint32), ``pair_prob.npy`` (float64) — paraphrase id and
  probability of each pair;
* ``meta.json`` — format version, source path/size/mtime, counts.

Compilation reads the gzip in 1 MB blocks (the cyclic GC paused: millions of
short lists), builds and saves each array as soon as it can and drops it
(peak ~365 MB for the English table), and refuses a table in which two
different phrases share a hash.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zlib
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from tmtprime.errors import ResourceError
from tmtprime.meteor.compiled import compiled
from tmtprime.meteor.gc_pause import paused_gc
from tmtprime.progress import Reporter, silent

FORMAT_VERSION = 2
_MUL = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_BLOCK = 1 << 20  # compressed bytes per read: ~4.5 MB of text, keeps parsing memory small


def extend_hash(h: np.ndarray, col: np.ndarray) -> np.ndarray:
    """Phrase hash state after one more word id (a phrase's hash is :func:`finalize_hash` of its state).

    A 64-bit multiply-xorshift mix, vectorized; :func:`hash_phrase_ids` computes the same for one phrase.
    """
    with np.errstate(over="ignore"):
        h = (h ^ (col.astype(np.uint64) + np.uint64(1))) * _MUL
        return h ^ (h >> np.uint64(29))


@compiled
def extend_one(h: np.uint64, word: np.int64) -> np.uint64:
    """:func:`extend_hash` of one hash state (compiled, for the lookups of :mod:`tmtprime.meteor.paraphrase_lookup`)."""
    h = (h ^ (np.uint64(word) + np.uint64(1))) * _MUL
    return h ^ (h >> np.uint64(29))


@compiled
def finalize_one(h: np.uint64) -> np.uint64:
    """:func:`finalize_hash` of one hash state (compiled)."""
    h = (h ^ (h >> np.uint64(31))) * _MIX1
    h = (h ^ (h >> np.uint64(27))) * _MIX2
    return h ^ (h >> np.uint64(33))


@compiled(wraps=True, exports=("uint64(int64[:])",))
def _phrase_hash(ids: np.ndarray) -> np.uint64:
    h = np.uint64(0)
    for x in ids:
        h = extend_one(h, x)
    return finalize_one(h)


def hash_phrase_ids(ids: Sequence[int]) -> int:
    """The finalized hash of one phrase."""
    return int(_phrase_hash(np.asarray(ids, dtype=np.int64)))


def finalize_hash(h: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        h = (h ^ (h >> np.uint64(31))) * _MIX1
        h = (h ^ (h >> np.uint64(27))) * _MIX2
        return h ^ (h >> np.uint64(33))


def _blocks(path: Path) -> Iterator[bytes]:
    """Decompressed content in blocks of complete lines, one per compressed read (plain text accepted too)."""
    try:
        with open(path, "rb") as raw:
            magic = raw.read(2)
            raw.seek(0)
            decoder = zlib.decompressobj(wbits=47) if magic == b"\x1f\x8b" else None
            rest = b""
            while True:
                chunk = raw.read(_BLOCK)
                if decoder is not None:
                    data = decoder.decompress(chunk) if chunk else decoder.flush()
                    while chunk and decoder.eof and decoder.unused_data:  # multi-member gzip
                        tail = decoder.unused_data
                        decoder = zlib.decompressobj(wbits=47)
                        data += decoder.decompress(tail)
                else:
                    data = chunk
                if not chunk and decoder is not None and not decoder.eof:
                    raise EOFError("compressed data ends before the end-of-stream marker (truncated file?)")
                if not chunk and not data:
                    break
                data = rest + data
                cut = data.rfind(b"\n") + 1
                rest = data[cut:]
                if cut:
                    yield data[:cut]
                if not chunk:
                    break
            if rest:
                yield rest + b"\n"
    except (OSError, zlib.error, EOFError) as error:
        raise ResourceError(f"paraphrase table {path} is unreadable: {error}") from None


class _Vocab(dict):
    """bytes word -> id, assigning the next id to a new word (C-speed lookups via ``map``)."""

    def __missing__(self, word: bytes) -> int:
        self[word] = len(self)
        return self[word]


class _Parsed(NamedTuple):
    vocab: list[str]
    probs: np.ndarray  # per pair
    src_rows: np.ndarray  # per run of equal source lines: padded word ids
    run_of_pair: np.ndarray
    tgt_rows: np.ndarray  # per pair: padded word ids


class _Rows:
    """Variable-length phrases accumulated as flat word ids + lengths."""

    def __init__(self) -> None:
        self.words = array("I")
        self.lengths = array("H")

    def add(self, phrases: list[bytes], vocab: _Vocab) -> list[int]:
        words = b" ".join(phrases).split()
        lengths = [p.count(b" ") + 1 for p in phrases]
        if len(words) != sum(lengths):  # irregular spacing somewhere: split phrase by phrase
            lengths = [len(p.split()) for p in phrases]
        self.words.extend(map(vocab.__getitem__, words))
        self.lengths.extend(lengths)
        return lengths

    def padded(self, width: int, dtype: type) -> np.ndarray:
        """The phrases as a 2-D array, padded with the dtype's maximum (int32 temporaries: memory)."""
        flat = np.frombuffer(self.words, dtype=np.uint32)
        lengths = np.frombuffer(self.lengths, dtype=np.uint16)
        rows = np.full((len(lengths), width), np.iinfo(dtype).max, dtype=dtype)
        index = np.int32 if len(flat) < 2**31 else np.int64
        starts = np.zeros(len(lengths), dtype=index)
        np.cumsum(lengths[:-1], dtype=index, out=starts[1:])
        for lo in range(0, len(lengths), 1 << 20):  # a million rows at a time keeps the temporaries small
            part_rows, part_len, part_starts = rows[lo : lo + (1 << 20)], lengths[lo : lo + (1 << 20)], starts[lo:]
            for k in range(width):
                has = part_len > k
                part_rows[has, k] = flat[part_starts[: len(part_len)][has] + k]
        return rows


def _parse(path: Path, reporter: Reporter) -> _Parsed:
    """Read the triples (probability, phrase, paraphrase) block by block.

    The cyclic garbage collector is paused meanwhile: the millions of short
    lists made here would otherwise trigger it again and again (3x slower).
    """
    with paused_gc():
        return _parse_blocks(path, reporter)


def _parse_blocks(path: Path, reporter: Reporter) -> _Parsed:
    vocab = _Vocab()
    probs = array("d")
    run_of_pair = array("I")
    sources, targets = _Rows(), _Rows()
    carry: list[bytes] = []
    last_src: bytes | None = None
    first_line = 1  # number of the first line in ``carry + block``
    blocks = reporter.track(_blocks(path), total=-(-path.stat().st_size // _BLOCK), desc=f"compiling {path.name}", unit="MB")
    for block in blocks:
        lines = block.split(b"\n")
        lines.pop()
        if b"\r" in block:
            lines = [line.rstrip(b"\r") for line in lines]
        lines = carry + lines
        cut = len(lines) - len(lines) % 3
        carry = lines[cut:]
        lines = lines[:cut]
        if not lines:
            continue
        try:
            probs.extend(map(float, lines[0::3]))
        except ValueError:
            bad = next(i for i, x in enumerate(lines[0::3]) if not _is_float(x))
            raise ResourceError(
                f"paraphrase table {path}, line {first_line + 3 * bad}: expected a probability, "
                f"found {_show(lines[3 * bad])}"
            ) from None
        srcs = lines[1::3]
        new = [s != p for p, s in zip([last_src, *srcs[:-1]], srcs)]
        new_srcs = [s for s, n in zip(srcs, new) if n]
        first_run = len(sources.lengths)
        lengths = sources.add(new_srcs, vocab) + targets.add(lines[2::3], vocab)
        if min(lengths) == 0 or max(lengths) > 255:
            raise ResourceError(f"paraphrase table {path}: an empty or over-long phrase near line {first_line}")
        run_of_pair.extend((np.cumsum(new) - 1 + first_run).tolist())
        last_src = srcs[-1]
        first_line += len(lines)
    if carry:
        if not _is_float(carry[0]):
            raise ResourceError(
                f"paraphrase table {path}, line {first_line}: expected a probability, found {_show(carry[0])}"
            )
        raise ResourceError(
            f"paraphrase table {path} ends in the middle of a pair (after line {first_line + len(carry) - 1})"
        )
    if not probs:
        raise ResourceError(f"paraphrase table {path} is empty")
    try:
        words = [w.decode("utf-8") for w in vocab]  # dicts keep insertion order = id order
    except UnicodeDecodeError as error:
        raise ResourceError(f"paraphrase table {path} is not UTF-8 text ({error})") from None
    width = int(max(max(sources.lengths), max(targets.lengths)))
    dtype = np.uint16 if len(words) < 0xFFFF else np.uint32
    return _Parsed(
        vocab=words,
        probs=np.frombuffer(probs, dtype=np.float64),
        src_rows=sources.padded(width, dtype),
        run_of_pair=np.frombuffer(run_of_pair, dtype=np.uint32),
        tgt_rows=targets.padded(width, dtype),
    )


def _show(line: bytes) -> str:
    """A table line as an error message shows it."""
    return repr(line[:80].decode("utf-8", "replace"))


def _is_float(text: bytes) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _row_hashes(rows: np.ndarray) -> np.ndarray:
    """Finalized phrase hashes of padded rows (pad = the dtype's maximum), a million rows at a time."""
    pad = np.iinfo(rows.dtype).max
    out = np.empty(len(rows), dtype=np.uint64)
    for lo in range(0, len(rows), 1 << 20):
        part = rows[lo : lo + (1 << 20)]
        lengths = (part != pad).sum(axis=1)
        h = np.zeros(len(part), dtype=np.uint64)
        for k in range(part.shape[1]):
            h = extend_hash(h, part[:, k])
            done = lengths == k + 1
            out[lo : lo + len(part)][done] = finalize_hash(h[done])
    return out


def _buckets(phrase_hash: np.ndarray) -> np.ndarray:
    """Where each of the 2**k equal slices of the 64-bit hash range starts in the sorted hashes.

    ``k`` is chosen for one to two phrases per slice; the array has 2**k + 1
    entries (the last is the number of phrases).
    """
    bits = max(1, len(phrase_hash).bit_length() - 1)
    bounds = np.arange(2**bits, dtype=np.uint64) << np.uint64(64 - bits)
    return np.append(np.searchsorted(phrase_hash, bounds), len(phrase_hash)).astype(np.uint32)


def compile_index(source: Path, dest: Path, *, reporter: Reporter | None = None) -> Path:
    """Compile ``source`` into the index directory ``dest`` (atomically: temp dir, then rename)."""
    stat = source.stat()
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".tmp-", dir=dest.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; the index is as readable as the cache
    try:
        meta = _write_index(_parse(source, silent(reporter)), source, tmp)
        meta.update(format=FORMAT_VERSION, source=str(source), size=stat.st_size, mtime_ns=stat.st_mtime_ns)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        try:
            os.rename(tmp, dest)
        except OSError:
            if not (dest / "meta.json").exists():  # not a concurrent compile that won the race
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _write_index(parsed: _Parsed, source: Path, out: Path) -> dict[str, int]:
    """Build the index arrays into ``out``, saving and dropping each as soon as it is complete.

    (Peak memory matters: a scorer may compile on first use, within its 500 MB.)
    """
    vocab, probs, src_rows, run_of_pair, tgt_rows = parsed
    del parsed
    (out / "vocab.txt").write_text("\n".join(vocab), encoding="utf-8", newline="\n")
    n_runs, width, n_pairs = len(src_rows), src_rows.shape[1], len(probs)
    hashes = np.concatenate([_row_hashes(src_rows), _row_hashes(tgt_rows)])
    order = np.argsort(hashes).astype(np.int32)  # int32 indices: half the memory of np.unique's
    hashes = hashes[order]
    starts = np.ones(len(hashes), dtype=bool)
    starts[1:] = hashes[1:] != hashes[:-1]
    phrase_hash = hashes[starts]
    del hashes
    n_phrases = len(phrase_hash)
    np.save(out / "phrase_hash.npy", phrase_hash)
    np.save(out / "bucket_off.npy", _buckets(phrase_hash))
    del phrase_hash
    inverse = np.empty(len(order), dtype=np.int32)
    inverse[order] = np.cumsum(starts, dtype=np.int32) - 1
    first = order[starts]
    del order, starts
    from_src = first < n_runs
    phrase_words = np.empty((n_phrases, width), dtype=src_rows.dtype)
    phrase_words[from_src] = src_rows[first[from_src]]
    phrase_words[~from_src] = tgt_rows[first[~from_src] - n_runs]
    del first, from_src
    inverse_runs = inverse[:n_runs]
    tgt_idx = inverse[n_runs:]
    # Every occurrence must carry the words of its phrase's representative: no two phrases share a hash.
    for k in range(width):
        if not (
            np.array_equal(phrase_words[tgt_idx, k], tgt_rows[:, k])
            and np.array_equal(phrase_words[inverse_runs, k], src_rows[:, k])
        ):
            raise ResourceError(f"paraphrase table {source}: 64-bit phrase hash collision; cannot index it")
    del tgt_rows, src_rows
    np.save(out / "phrase_words.npy", phrase_words)
    del phrase_words
    src_idx = inverse_runs[run_of_pair]
    del run_of_pair
    src_off = np.zeros(n_phrases + 1, dtype=np.uint32)
    np.cumsum(np.bincount(src_idx, minlength=n_phrases), out=src_off[1:])
    np.save(out / "src_off.npy", src_off)
    del src_off
    order = np.argsort(src_idx, kind="stable")
    del src_idx
    np.save(out / "pair_tgt.npy", tgt_idx[order].astype(np.uint32))
    del tgt_idx, inverse, inverse_runs
    np.save(out / "pair_prob.npy", probs[order])
    return {"pairs": n_pairs, "phrases": n_phrases, "words": len(vocab), "max_phrase_len": width}


def drop_other_formats(folder: Path) -> None:
    """Delete indexes of other format versions (they are never opened again; ~135 MB each)."""
    for entry in folder.glob("*-v*"):
        version = entry.name.rpartition("-v")[2]
        if entry.is_dir() and version.isdigit() and int(version) != FORMAT_VERSION:
            shutil.rmtree(entry, ignore_errors=True)
