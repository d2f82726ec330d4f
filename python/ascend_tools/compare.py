"""compare(): op_validate on numpy arrays or files."""
import json
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ._tools import AscendToolsError, flag_arguments, run_tool


@dataclass
class CompareResult:
    """op_validate's verdict and metrics for one golden/actual pair (its JSON report's row).

    passed           the verdict (op_validate exit 0)
    error_classes    the failed criteria: "absolute", "relative", "nan", "inf", "scale_offset", ...
    metrics          msit compare's metrics by name: CosineSimilarity, MaxAbsoluteError,
                     MeanAbsoluteError, MaxRelativeError, MeanRelativeError, RootMeanSquareError,
                     RelativeEuclideanDistance, KullbackLeiblerDivergence, AccumulatedRelativeError,
                     StandardDeviation
    first_failing    coordinates of the first failing element (tuple), or None
    diagnosis        op_validate's diagnosis lines
    report           the whole JSON row (nonfinite counts, scale fit, worst elements, histogram, ...)
    """
    passed: bool
    error_classes: list
    metrics: dict
    elements: int
    failing_elements: int
    error_rate: float
    first_failing: tuple
    diagnosis: list
    min_tolerance: dict
    report: dict = field(repr=False)

    @property
    def cosine(self):
        return self.metrics.get("CosineSimilarity")

    @property
    def max_abs_error(self):
        return self.metrics.get("MaxAbsoluteError")

    @property
    def mean_abs_error(self):
        return self.metrics.get("MeanAbsoluteError")

    @property
    def max_rel_error(self):
        return self.metrics.get("MaxRelativeError")

    @property
    def mean_rel_error(self):
        return self.metrics.get("MeanRelativeError")

    def __bool__(self):
        return self.passed


def _coordinates(text):
    if not text:
        return None
    inner = text.strip("[]")
    return tuple(int(v) for v in inner.split(",")) if inner else ()


def _as_file(value, directory, name):
    """A path as given, or an array saved as .npy (dtype and shape kept)."""
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    array = np.asarray(value)
    if array.dtype == object:
        raise AscendToolsError("EE7002", f"{name} is not a numeric array (dtype object)", "compare")
    path = os.path.join(directory, f"{name}.npy")
    np.save(path, array)
    return path


def compare(golden, actual, *, abs_tolerance=1e-3, rel_tolerance=1e-2, error_rate_threshold=0.0, op_name=None,
            dtype=None, golden_dtype=None, actual_dtype=None, shape=None):
    """Compares `actual` with `golden` (numpy arrays, or paths to .npy / raw files) with
    op_validate's tolerances; returns a CompareResult (a failing comparison is a result with
    passed False, not an exception). Raw files take `dtype` (or golden_dtype/actual_dtype) and
    `shape` as op_validate's flags do. Bad input (mismatched shapes EE7001, float against integer
    EE7002, a missing file EE4001, a negative tolerance EE5007, ...) raises AscendToolsError."""
    with tempfile.TemporaryDirectory(prefix="ascend_tools_compare_") as directory:
        report_path = os.path.join(directory, "report.json")
        flags = {"golden": _as_file(golden, directory, "golden"), "actual": _as_file(actual, directory, "actual"),
                 "abs_tolerance": repr(float(abs_tolerance)), "rel_tolerance": repr(float(rel_tolerance)),
                 "error_rate_threshold": repr(float(error_rate_threshold)), "op_name": op_name, "dtype": dtype,
                 "golden_dtype": golden_dtype, "actual_dtype": actual_dtype, "shape": shape,
                 "output": report_path, "quiet": True}
        run_tool("op_validate", flag_arguments(flags), accept=(0, 1))  # 1: a precision failure, reported
        with open(report_path) as file:
            report = json.load(file)
    row = report["rows"][0]
    comparison = row["comparison"]
    return CompareResult(passed=bool(comparison["passed"]), error_classes=list(comparison["error_classes"]),
                         metrics=dict(comparison["metrics"]), elements=comparison["elements"],
                         failing_elements=comparison["failing_elements"], error_rate=comparison["error_rate"],
                         first_failing=_coordinates(comparison.get("first_failing")),
                         diagnosis=list(comparison.get("diagnostics", [])),
                         min_tolerance=dict(comparison.get("min_tolerance", {})), report=row)
