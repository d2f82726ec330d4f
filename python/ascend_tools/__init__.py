"""ascend_tools: the toolchain's Python API.

    import ascend_tools as at
    result = at.compare(golden, actual, abs_tolerance=1e-3, rel_tolerance=1e-2)   # op_validate
    om = at.atc(model="resnet50.onnx", framework=5, output="resnet50", soc_version="Ascend310P3")
    run = at.run(om, [image])              # outputs (numpy) and the simulated device time
    report = at.model_trade("./profiling_output")                                 # modelTrade

Each call drives the project's own command-line tool (op_validate, atc, ais_bench, modelTrade)
found next to this package (the build tree's or the install's bin/), so results, metrics and
error codes are the tools' own. A failure raises AscendToolsError carrying the tool's EE code
and message. The pyACL-compatible runtime is the separate module `acl`.
"""
from ._tools import AscendToolsError, bin_dir
from .compare import CompareResult, compare
from .convert import atc, convert
from .model_trade import model_trade
from .run import RunResult, run

__all__ = ["AscendToolsError", "CompareResult", "RunResult", "atc", "bin_dir", "compare", "convert", "model_trade",
           "run"]
