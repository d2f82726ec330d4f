"""tools/export_cache.py: entries are copied back byte for byte, and the cache stays under its
limit by removing the least recently used entries (a hit counts as a use)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import export_cache  # noqa: E402

KIB = 1024


def export(tmp_path, name, size):
    """A fake export: a model of `size` bytes and one sample file."""
    work = tmp_path / name
    work.mkdir()
    (work / "model.onnx").write_bytes(bytes([len(name)]) * size)
    (work / "input_b1.npy").write_bytes(b"sample " + name.encode())
    return work


def store(tmp_path, cache, name, size, when):
    work = export(tmp_path, name, size)
    export_cache.store(str(cache), name, str(work / "model.onnx"), str(work), ["input_b1.npy"])
    os.utime(cache / name, (when, when))


def test_restore_copies_the_stored_files(tmp_path, monkeypatch):
    monkeypatch.delenv("ASC_MODEL_CACHE_MB", raising=False)
    cache = tmp_path / "cache"
    store(tmp_path, cache, "a", 3 * KIB, 1000)
    out = tmp_path / "out"
    assert export_cache.restore(str(cache), "a", str(out / "m.onnx"), str(out), ["input_b1.npy"])
    assert (out / "m.onnx").read_bytes() == bytes([1]) * 3 * KIB
    assert (out / "input_b1.npy").read_bytes() == b"sample a"
    assert not export_cache.restore(str(cache), "b", str(out / "m.onnx"), str(out), ["input_b1.npy"])


def test_least_recently_used_entries_go_first(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("ASC_MODEL_CACHE_MB", str(100 / 1024))  # 100 KiB
    store(tmp_path, cache, "old", 40 * KIB, 1000)
    store(tmp_path, cache, "used", 40 * KIB, 2000)
    # A hit makes "used" the most recently used entry.
    out = tmp_path / "out"
    assert export_cache.restore(str(cache), "used", str(out / "m.onnx"), str(out), ["input_b1.npy"])
    # 40 + 40 + 40 KiB (and the sample files) is over 100 KiB: the oldest entry goes, not the new one.
    work = export(tmp_path, "new", 40 * KIB)
    export_cache.store(str(cache), "new", str(work / "model.onnx"), str(work), ["input_b1.npy"])
    assert sorted(os.listdir(cache)) == ["new", "used"]
    assert not export_cache.restore(str(cache), "old", str(out / "m.onnx"), str(out), ["input_b1.npy"])


def test_an_entry_larger_than_the_limit_is_kept_alone(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("ASC_MODEL_CACHE_MB", str(10 / 1024))  # 10 KiB
    store(tmp_path, cache, "small", 4 * KIB, 1000)
    work = export(tmp_path, "big", 20 * KIB)
    export_cache.store(str(cache), "big", str(work / "model.onnx"), str(work), ["input_b1.npy"])
    assert os.listdir(cache) == ["big"]


@pytest.mark.parametrize("value", ["lots", "-1", "nan", "inf"])
def test_a_limit_that_is_not_megabytes_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("ASC_MODEL_CACHE_MB", value)
    with pytest.raises(SystemExit, match="ASC_MODEL_CACHE_MB"):
        export_cache.limit_bytes()
