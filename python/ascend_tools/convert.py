"""atc() / convert(): ATC with its flags as keyword arguments."""
import os

from ._tools import flag_arguments, run_tool


def atc(**flags):
    """Runs atc with `flags` as --name=value (ATC's names: model, framework, output, soc_version,
    input_shape, input_format, input_fp16_nodes, output_type, precision_mode, dynamic_batch_size,
    ...; lists are joined with commas, True is a bare switch). Returns the .om's path. A refused
    model or flag raises AscendToolsError with atc's EE code."""
    if "output" not in flags:
        raise TypeError("atc() needs output=<path of the .om without its extension>")
    run_tool("atc", flag_arguments(flags))
    output = os.fspath(flags["output"])
    return output if output.endswith(".om") else output + ".om"


convert = atc
