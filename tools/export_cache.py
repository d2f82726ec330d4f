"""A cache of tools/export_model.py's outputs, shared by the build trees and the tests that export
the same models (ASC_MODEL_CACHE names its directory; unset, nothing is cached).

An entry's key is the SHA-256 of everything its files depend on: the exporting scripts' text
(export_model.py, small_models.py, this file), the torch, torchvision and numpy versions, and the
arguments that shape the outputs (not where they go). A changed script or library is a new key, so
no export is ever answered with files an older exporter wrote. Entries are assembled in a
temporary directory and renamed into place: when two tests export one key at once, the first
rename wins and the other's copy is dropped. Only the standard library is imported here: a hit
must not pay for importing torch.

The cache is bounded: a hit or a store marks the entry used (its modification time), and after a
store the least recently used entries are removed while the cache holds more than
ASC_MODEL_CACHE_MB megabytes (default 4096; a whole suite stores about 800). Keys change with every
edit of an exporting script, so without this a development machine's cache only grows. A restore
that finds its entry removed meanwhile is a miss: the caller exports again.
"""
import hashlib
import importlib.metadata
import json
import os
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIMIT_MB = 4096
SCRIPTS = ("export_model.py", "small_models.py", "export_cache.py")
LIBRARIES = ("torch", "torchvision", "numpy")
MODEL = "model.onnx"


def directory():
    """The cache directory, or None when ASC_MODEL_CACHE is not set."""
    return os.environ.get("ASC_MODEL_CACHE") or None


def key(settings):
    """The entry key for an export with `settings` (a JSON-serialisable dict)."""
    digest = hashlib.sha256()
    for script in SCRIPTS:
        with open(os.path.join(HERE, script), "rb") as f:
            digest.update(script.encode() + b"\0" + f.read() + b"\0")
    for library in LIBRARIES:
        try:
            version = importlib.metadata.version(library)
        except importlib.metadata.PackageNotFoundError:
            version = "absent"
        digest.update(f"{library}={version}\0".encode())
    digest.update(json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


def copy_into_place(source, destination):
    """Copies (never links: a test may rewrite its copy) through a temporary file beside it."""
    os.makedirs(os.path.dirname(os.path.abspath(destination)), exist_ok=True)
    tmp = f"{destination}.tmp.{os.getpid()}"
    shutil.copyfile(source, tmp)
    os.replace(tmp, destination)


def restore(cache, entry_key, output, sample_dir, sample_files):
    """Copies a stored entry to `output` (and its samples into `sample_dir`); False on a miss."""
    entry = os.path.join(cache, entry_key)
    wanted = [os.path.join(entry, MODEL)] + [os.path.join(entry, name) for name in sample_files]
    if not all(os.path.isfile(path) for path in wanted):
        return False
    try:
        copy_into_place(wanted[0], output)
        for name in sample_files:
            copy_into_place(os.path.join(entry, name), os.path.join(sample_dir, name))
        os.utime(entry)
    except FileNotFoundError:
        return False  # evicted by another process's store while being copied
    return True


def store(cache, entry_key, output, sample_dir, sample_files):
    """Adds the files an export just wrote as the entry for `entry_key`."""
    os.makedirs(cache, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=f".{entry_key}.", dir=cache)
    try:
        shutil.copyfile(output, os.path.join(staging, MODEL))
        for name in sample_files:
            shutil.copyfile(os.path.join(sample_dir, name), os.path.join(staging, name))
        os.rename(staging, os.path.join(cache, entry_key))
    except OSError:
        pass  # another process stored the same key first (or the cache is not writable): keep going
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    evict(cache, limit_bytes(), keep=entry_key)


def limit_bytes():
    """ASC_MODEL_CACHE_MB in bytes (DEFAULT_LIMIT_MB when unset)."""
    value = os.environ.get("ASC_MODEL_CACHE_MB") or str(DEFAULT_LIMIT_MB)
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not 0 <= megabytes < float("inf"):
        raise SystemExit(f"ASC_MODEL_CACHE_MB={value!r} is not a number of megabytes (0 or more)")
    return int(megabytes * 1024 * 1024)


def evict(cache, limit, keep):
    """Removes the least recently used entries, never `keep`, until the cache holds at most `limit`
    bytes. Staging directories (names starting with '.') belong to stores in progress."""
    entries = []
    for name in os.listdir(cache):
        path = os.path.join(cache, name)
        if name.startswith(".") or not os.path.isdir(path):
            continue
        try:
            size = sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))
            entries.append((os.path.getmtime(path), name, size))
        except FileNotFoundError:
            continue  # removed by another process meanwhile
    total = sum(size for _, _, size in entries)
    for _, name, size in sorted(entries):
        if total <= limit:
            break
        if name != keep:
            shutil.rmtree(os.path.join(cache, name), ignore_errors=True)
            total -= size
