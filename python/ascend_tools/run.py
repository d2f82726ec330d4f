"""run(): an offline model on the simulated NPU (ais_bench), returning numpy outputs and the
simulated device time."""
import glob
import json
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ._tools import AscendToolsError, run_tool


@dataclass
class RunResult:
    """outputs: the model's outputs in order (numpy, with the NPU's numerics); device_time_ms:
    the simulated device time of one inference (ais_bench's NPU_compute_time, host-link copies
    excluded); summary: ais_bench's whole _summary.json."""
    outputs: list
    device_time_ms: float
    summary: dict = field(repr=False)


def run(om, inputs, *, loop=1):
    """Runs `om` once (or `loop` times) on `inputs` (numpy arrays in the model's input order, or
    paths to .npy/.bin files) with ais_bench; returns a RunResult."""
    if isinstance(inputs, np.ndarray) or isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    with tempfile.TemporaryDirectory(prefix="ascend_tools_run_") as directory:
        files = []
        for index, value in enumerate(inputs):
            if isinstance(value, (str, os.PathLike)):
                files.append(os.fspath(value))
            else:
                files.append(os.path.join(directory, f"input{index}.npy"))
                np.save(files[-1], np.ascontiguousarray(value))
        out = os.path.join(directory, "out")
        run_tool("ais_bench", [f"--model={os.fspath(om)}", "--input=" + ",".join(files), f"--output={out}",
                               "--output_dirname=result", "--outfmt=NPY", f"--loop={int(loop)}"])
        with open(os.path.join(out, "result_summary.json")) as file:
            summary = json.load(file)
        names = [name for info in summary.get("filesinfo", {}).values() for name in info.get("outfiles", [])]
        if not names:
            names = sorted(glob.glob(os.path.join(out, "result", "*.npy")))
        if not names:
            raise AscendToolsError("", "ais_bench wrote no outputs", "ais_bench")
        outputs = [np.load(name if os.path.isabs(name) else os.path.join(out, "result", os.path.basename(name)))
                   for name in names]
    return RunResult(outputs=outputs, device_time_ms=float(summary["NPU_compute_time"]["mean"]), summary=summary)
