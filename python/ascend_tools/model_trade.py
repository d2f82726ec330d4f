"""model_trade(): modelTrade's JSON report of a profile as a dict."""
import json
import os
import tempfile

from ._tools import flag_arguments, run_tool


def model_trade(report_dir, **flags):
    """Analyses the profile `report_dir` (a PROF_* directory, a parent holding one, ...: what
    modelTrade --report takes) and returns its JSON report as a dict (model_name, soc_version,
    total_time, op_summary, ...). `flags` are modelTrade's other flags (model_name, soc_version,
    ...). A missing or malformed profile raises AscendToolsError with modelTrade's EE code."""
    with tempfile.TemporaryDirectory(prefix="ascend_tools_model_trade_") as directory:
        output = os.path.join(directory, "perf.json")
        run_tool("modelTrade", [f"--report={os.fspath(report_dir)}", f"--output={output}", "--format=json"] +
                 flag_arguments(flags))
        with open(output) as file:
            return json.load(file)
