"""ascend_tools: compare() against op_validate on the same data written as raw files, and against
metrics computed here in float64; run() against y = 2x + 1; errors as AscendToolsError with the
tools' EE codes."""
import json
import os
import subprocess

import numpy as np
import pytest

import ascend_tools
from ascend_tools import AscendToolsError


def op_validate_on_files(golden, actual, directory, **flags):
    """op_validate's JSON row for the arrays written as raw little-endian .bin files."""
    golden_path, actual_path = os.path.join(directory, "golden.bin"), os.path.join(directory, "actual.bin")
    golden.tofile(golden_path)
    actual.tofile(actual_path)
    report = os.path.join(directory, "cli.json")
    command = [os.path.join(ascend_tools.bin_dir(), "op_validate"), f"--golden={golden_path}",
               f"--actual={actual_path}", f"--golden_dtype={golden.dtype.name}", f"--actual_dtype={actual.dtype.name}",
               "--shape=" + ",".join(str(d) for d in golden.shape), f"--output={report}", "--quiet"]
    command += [f"--{name}={value}" for name, value in flags.items()]
    completed = subprocess.run(command, capture_output=True, text=True)
    assert completed.returncode in (0, 1), completed.stderr
    with open(report) as file:
        return json.load(file)["rows"][0]["comparison"], completed.returncode


def cases():
    rng = np.random.default_rng(11)
    golden = rng.standard_normal((2, 8, 6, 6)).astype(np.float32)
    with_nan = golden.copy()
    with_nan[1, 3, 2, 4] = np.nan
    return {
        "close": (golden, (golden + 1e-5).astype(np.float32), {}),
        "fp16_actual": (golden, golden.astype(np.float16), {"abs_tolerance": 1e-2}),
        "nan": (golden, with_nan, {}),
        "scale_offset": (golden, (golden * 1.05 + 0.02).astype(np.float32), {"rel_tolerance": 1e-3}),
        "one_channel_off": (golden, np.where(np.arange(8)[None, :, None, None] == 5, golden + 0.5, golden)
                            .astype(np.float32), {"error_rate_threshold": 0.01}),
    }


@pytest.mark.parametrize("name", sorted(cases()))
def test_compare_matches_op_validate_on_files(name, tmp_path):
    golden, actual, flags = cases()[name]
    result = ascend_tools.compare(golden, actual, **flags)
    cli, status = op_validate_on_files(golden, actual, str(tmp_path), **flags)
    assert result.passed == cli["passed"] == (status == 0)
    assert result.error_classes == cli["error_classes"]
    assert result.failing_elements == cli["failing_elements"]
    assert result.first_failing == (tuple(int(v) for v in cli["first_failing"].strip("[]").split(","))
                                    if cli["first_failing"] else None)
    for metric, value in cli["metrics"].items():
        assert result.metrics[metric] == value, metric
    # Independent of both: the metrics over the finite pairs, in float64.
    g, a = golden.astype(np.float64).ravel(), actual.astype(np.float64).ravel()
    finite = np.isfinite(g) & np.isfinite(a)
    difference = np.abs(a[finite] - g[finite])
    assert result.max_abs_error == pytest.approx(difference.max(), rel=1e-9)
    assert result.mean_abs_error == pytest.approx(difference.mean(), rel=1e-9)
    cosine = a[finite] @ g[finite] / (np.linalg.norm(a[finite]) * np.linalg.norm(g[finite]))
    assert result.cosine == pytest.approx(cosine, rel=1e-9)


def test_compare_verdicts_name_the_failures():
    cs = cases()
    assert ascend_tools.compare(*cs["close"][:2]).passed
    nan = ascend_tools.compare(*cs["nan"][:2])
    assert not nan and "nan" in nan.error_classes and nan.first_failing == (1, 3, 2, 4)
    scaled = ascend_tools.compare(cs["scale_offset"][0], cs["scale_offset"][1], rel_tolerance=1e-3)
    assert "scale_offset" in scaled.error_classes
    assert scaled.report["comparison"]["scale_fit"]["scale"] == pytest.approx(1.05, rel=1e-4)
    assert any("1.05" in line for line in scaled.diagnosis)


def test_compare_reads_paths(tmp_path):
    golden = np.linspace(0, 1, 10, dtype=np.float32)
    np.save(tmp_path / "g.npy", golden)
    (golden + 0.5).tofile(tmp_path / "a.bin")
    result = ascend_tools.compare(str(tmp_path / "g.npy"), tmp_path / "a.bin", dtype="float32")
    assert not result.passed and result.max_abs_error == pytest.approx(0.5)


def test_compare_bad_input_raises_coded_errors(tmp_path):
    with pytest.raises(AscendToolsError) as shape_error:
        ascend_tools.compare(np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32))
    assert shape_error.value.code == "EE7001"
    assert "2,3" in shape_error.value.message.replace(" ", "") or "[2,3]" in str(shape_error.value)
    with pytest.raises(AscendToolsError) as missing:
        ascend_tools.compare(str(tmp_path / "missing.npy"), np.zeros(3, np.float32))
    assert missing.value.code == "EE4001" and "missing.npy" in missing.value.message
    with pytest.raises(AscendToolsError) as tolerance:
        ascend_tools.compare(np.zeros(3, np.float32), np.zeros(3, np.float32), abs_tolerance=-1)
    assert tolerance.value.code.startswith("EE5")


def test_atc_and_run(models, tmp_path):
    x = np.array([[0, 1, 2, 3], [4, 5, -6, 0.5]], np.float32)
    result = ascend_tools.run(models["affine"], [x])
    assert len(result.outputs) == 1
    np.testing.assert_array_equal(result.outputs[0].reshape(2, 4), 2 * x + 1)
    assert result.device_time_ms > 0
    with pytest.raises(AscendToolsError) as refused:
        ascend_tools.atc(model=str(tmp_path / "none.onnx"), framework=5, output=str(tmp_path / "none"),
                         soc_version="Ascend310")
    assert refused.value.code == "EE1001" and "none.onnx" in refused.value.message  # atc: model parsing
    with pytest.raises(AscendToolsError) as missing_model:
        ascend_tools.run(str(tmp_path / "none.om"), [x])
    assert missing_model.value.code == "EE4001"


def test_model_trade_errors(tmp_path):
    with pytest.raises(AscendToolsError) as missing:
        ascend_tools.model_trade(tmp_path / "no_profile")
    assert missing.value.code.startswith("EE4")
