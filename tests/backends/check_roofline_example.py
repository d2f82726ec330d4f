#!/usr/bin/python3
"""The out-of-tree backend example end to end (docs/backends.md):

1. install the build into a temporary prefix and build examples/roofline_backend against it
   (find_package(AscSdk), nothing from the source tree);
2. export ResNet-50 (tools/export_model.py, cached in --models) and compile it with the installed
   atc for Ascend310P3;
3. run the .om on the roofline backend from the installed ais_bench (--backend roofline, the
   plugin found through ASC_PLUGIN_PATH) with --dump, and again with --profiler; and from a YAML
   pipeline (the example's pipelines/bench_roofline.yaml: stage ais_bench.run, backend: roofline);
4. op_validate compares the --dump directory with the reference backend's dump of the ONNX model
   for the same input (asc run configs/pipelines/run_reference.yaml --set dump_dir=...);
5. modelTrade analyses the PROF_* directory, and every task's duration in it is checked against the
   roofline computed here from the operands' shapes in op_summary and the SoC file.

    check_roofline_example.py --build BUILD --source SRC --work DIR --models DIR --generator Ninja --cxx c++
"""
import argparse
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
import yaml
from onnx import numpy_helper

SOC = "Ascend310P3"
LOOPS = 2  # inferences in the profiled run: the second must follow the first on the device clock
STEPS = []  # (description, seconds) for the timing line at the end


def run(description, command, env=None, cwd=None):
    """Runs `command`; fails the test with its output when it exits non-zero."""
    start = time.monotonic()
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    STEPS.append((description, time.monotonic() - start))
    if result.returncode != 0:
        sys.exit(f"FAILED: {description} (exit {result.returncode}): {' '.join(command)}\n"
                 f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")
    return result.stdout


def run_failing(description, command, status, expected, env=None):
    """Runs `command`, which must exit with `status` and say `expected` on stdout or stderr."""
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    said = result.stdout + result.stderr
    if result.returncode != status or expected not in said:
        sys.exit(f"FAILED: {description}: expected exit {status} saying {expected!r}, got exit "
                 f"{result.returncode}:\n{said}")


def check(condition, message):
    if not condition:
        sys.exit(f"FAILED: {message}")


def build_example(args, prefix, example_build):
    run("install the build", ["cmake", "--install", args.build, "--prefix", prefix])
    configure = ["cmake", "-S", os.path.join(args.source, "examples", "roofline_backend"), "-B", example_build,
                 "-G", args.generator, f"-DCMAKE_CXX_COMPILER={args.cxx}", "-DCMAKE_BUILD_TYPE=Release",
                 f"-DCMAKE_PREFIX_PATH={prefix}"]
    if args.launcher:
        configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={args.launcher}")
    run("configure the example against the installed SDK", configure)
    run("build the example", ["cmake", "--build", example_build])
    plugin = os.path.join(example_build, "backend_roofline.so")
    check(os.path.isfile(plugin), f"the example's build has no {plugin}")


def export_resnet50(args):
    """ResNet-50 with calibrated BatchNorm statistics (activations at a trained network's scale,
    see tools/export_model.py) and a seeded sample input; cached across runs."""
    onnx_path = os.path.join(args.models, "resnet50.onnx")
    sample = os.path.join(args.models, "samples", "input_b1.npy")
    if not (os.path.exists(onnx_path) and os.path.exists(sample)):
        run("export ResNet-50", [sys.executable, os.path.join(args.source, "tools", "export_model.py"), "resnet50",
                                 onnx_path, "--static", "--calibrate-bn", "--sample-dir",
                                 os.path.join(args.models, "samples"), "--sample-batch", "1"])
    return onnx_path, sample


def fp16_weights(onnx_path, rounded_path):
    """The model with every float32 initializer rounded to fp16 and back, as atc stores it under
    force_fp16 (docs/npusim.md, precision); cached beside the export."""
    if not os.path.exists(rounded_path):
        model = onnx.load(onnx_path)
        for tensor in model.graph.initializer:
            array = numpy_helper.to_array(tensor)
            if array.dtype == np.float32:
                tensor.CopyFrom(numpy_helper.from_array(array.astype(np.float16).astype(np.float32), tensor.name))
        onnx.save(model, rounded_path + ".tmp")
        os.replace(rounded_path + ".tmp", rounded_path)
    return rounded_path


def run_reference(args, bin_dir, env, model, sample, output_dir, dump_dir=""):
    """The reference backend's run of `model` on `sample` (configs/pipelines/run_reference.yaml),
    every node dumped to `dump_dir` when given."""
    run(f"reference backend ({os.path.basename(model)})",
        [os.path.join(bin_dir, "asc"), "run", os.path.join(args.source, "configs", "pipelines", "run_reference.yaml"),
         "--set", f"model={model}", "--set", f"inputs={sample}", "--set", f"output_dir={output_dir}",
         "--set", f"dump_dir={dump_dir}", "--set", "threads=2"], env=env)


def only(pattern):
    found = glob.glob(pattern)
    check(len(found) == 1, f"expected one match of {pattern}, found {found}")
    return found[0]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- the roofline, recomputed from op_summary's operand columns and the SoC file -----------------

DTYPE_BYTES = {"FLOAT": 4, "FLOAT16": 2, "INT64": 8, "INT32": 4, "INT8": 1, "UINT8": 1}


def shapes_of(text):
    return [[int(d) for d in s.split(",")] if s else [] for s in text.split(";")]


def bytes_of(shapes, dtypes):
    return sum(math.prod(shape) * DTYPE_BYTES[dtype] for shape, dtype in zip(shapes_of(shapes), dtypes.split(";")))


def expected_duration(row, soc):
    """max(flops / peak, bytes / bandwidth) + launch for one op_summary row, from its shapes:
    a convolution's MACs are output elements x (weights per output channel) (MAC = 2 flop);
    a Gemm's are M x N x K. A fused convolution's epilogue (bias, residual add, Relu: at most 3 flop
    per output element against >= 2 x 64 here) is left out, so cube tasks are compared within 2 %."""
    bandwidth = soc["device_memory"]["bandwidth_gbs"] * 1e3  # bytes/us
    launch = soc["fixed_costs"]["kernel_launch_us"]
    moved = bytes_of(row["Input Shapes"], row["Input Data Types"]) + \
        bytes_of(row["Output Shapes"], row["Output Data Types"])
    memory_us = moved / bandwidth
    inputs, outputs = shapes_of(row["Input Shapes"]), shapes_of(row["Output Shapes"])
    op_type = row["OP Type"]
    if op_type in ("Conv", "FusedConv"):
        weights = inputs[1]
        flops = 2 * math.prod(outputs[0]) * math.prod(weights[1:])
    elif op_type in ("Gemm", "FusedGemm"):
        flops = 2 * outputs[0][0] * outputs[0][1] * inputs[0][1]
    else:
        return None  # vector tasks: checked separately as memory-bound
    m, k, n = soc["cube"]["fp16"]  # 310P3 has no fp32 cube: fp32 operands run on the fp16 fractal
    peak = 2 * m * k * n * soc["ai_cores"] * soc["clock_mhz"]  # flop/us
    return max(flops / peak, memory_us) + launch


def check_profile_times(prof, soc):
    """Every task of the profile against the roofline computed from its operand columns."""
    summary = read_csv(only(os.path.join(prof, "mindstudio_profiler_output", "op_summary_*.csv")))
    # 53 convolutions, the Gemm, MaxPool, GlobalAveragePool and the two Casts atc inserts (Flatten
    # moves nothing: no task).
    check(len(summary) == 58 * LOOPS, f"op_summary lists {len(summary)} tasks, expected {LOOPS} x ResNet-50's 58")
    bandwidth = soc["device_memory"]["bandwidth_gbs"] * 1e3
    launch = soc["fixed_costs"]["kernel_launch_us"]
    cube = vector = 0
    for row in summary:
        duration = float(row["Task Duration(us)"])
        expected = expected_duration(row, soc)
        check(row["Task Type"] == "AI_CORE", f"{row['Op Name']}: task type {row['Task Type']} on coupled {SOC}")
        check(int(row["Block Dim"]) == soc["ai_cores"], f"{row['Op Name']}: block dim {row['Block Dim']}")
        if expected is not None:
            check(abs(duration - expected) <= 0.02 * expected,
                  f"{row['Op Name']} ({row['OP Type']}): {duration} us, the roofline gives {expected:.3f} us")
            cube += 1
        else:
            # MaxPool / GlobalAveragePool do a handful of operations per element, far below the
            # vector unit's ridge point (peak / bandwidth = 2.7 flop per byte at fp32): memory-bound.
            moved = bytes_of(row["Input Shapes"], row["Input Data Types"]) + \
                bytes_of(row["Output Shapes"], row["Output Data Types"])
            expected = moved / bandwidth + launch
            check(abs(duration - expected) <= 0.002, f"{row['Op Name']} ({row['OP Type']}): {duration} us, "
                                                     f"memory-bound roofline {expected:.3f} us")
            vector += 1
    # One stream, one device clock: from 0, every task (the copies included) starts where the
    # previous one ended, across both inferences.
    tasks = read_csv(only(os.path.join(prof, "mindstudio_profiler_output", "task_time_*.csv")))
    check(sum(t["kernel_type"] == "MEMCPY_ASYNC" for t in tasks) == 2 * LOOPS,
          "task_time lacks a host-to-device and a device-to-host copy per inference")
    check(float(tasks[0]["task_start(us)"]) == 0, f"the first task starts at {tasks[0]['task_start(us)']} us")
    for previous, task in zip(tasks, tasks[1:]):
        check(abs(float(previous["task_stop(us)"]) - float(task["task_start(us)"])) <= 0.002,
              f"{task['kernel_name']} starts at {task['task_start(us)']} us, the previous task stopped at "
              f"{previous['task_stop(us)']} us")
        check(int(task["task_id"]) == int(previous["task_id"]) + 1, "task ids do not count up along the stream")
    print(f"profile: {cube} cube tasks within 2 % and {vector} vector tasks within 0.002 us of the roofline")
    return summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--models", required=True, help="cache for the exported model")
    parser.add_argument("--generator", default="Ninja")
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--launcher", default="")
    args = parser.parse_args()
    for name in ("build", "source", "work", "models"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    total = time.monotonic()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    os.makedirs(args.models, exist_ok=True)
    prefix = os.path.join(args.work, "prefix")
    example_build = os.path.join(args.work, "example-build")
    bin_dir = os.path.join(prefix, "bin")

    build_example(args, prefix, example_build)
    onnx_path, sample = export_resnet50(args)

    # Only the installed tree and the example: no build-tree plugin, no source-tree SoC file.
    env = dict(os.environ, ASC_PLUGIN_PATH=example_build, ASC_LOG_LEVEL="error")
    env.pop("ASC_SOC_DIR", None)
    om = os.path.join(args.work, "resnet50")
    run("atc", [os.path.join(bin_dir, "atc"), f"--model={onnx_path}", "--framework=5", f"--output={om}",
                f"--soc_version={SOC}", "--input_shape=input:1,3,224,224", "--log=error"], env=env, cwd=args.work)

    bench = [os.path.join(bin_dir, "ais_bench"), "--model", om + ".om", "--backend", "roofline", "--input", sample,
             "--warmup_count", "0", "--outfmt", "NPY"]
    dump_run = os.path.join(args.work, "bench_dump")
    out = run("ais_bench --backend roofline --dump", bench + ["--output", dump_run, "--output_dirname", "run",
                                                              "--dump", "1"], env=env)
    check("NPU_compute_time" in out, f"ais_bench printed no summary:\n{out}")
    profile_run = os.path.join(args.work, "bench_profile")
    run("ais_bench --backend roofline --profiler", bench + ["--output", profile_run, "--output_dirname", "run",
                                                            "--profiler", "1", "--loop", str(LOOPS)], env=env)
    # The pipeline (stage ais_bench.run, backend: roofline) with its default, a profile.
    pipeline_run = os.path.join(args.work, "pipeline")
    pipeline = os.path.join(args.source, "examples", "roofline_backend", "pipelines", "bench_roofline.yaml")
    run("asc run bench_roofline.yaml", [os.path.join(bin_dir, "asc"), "run", pipeline,
                                        "--set", f"model={om}.om", "--set", f"input={sample}",
                                        "--set", f"output={pipeline_run}", "--set", "warmup_count=0"], env=env)
    # The SoC directory comes from soc_dir when given (here one without SoC files): EE5007, exit 15.
    empty = os.path.join(args.work, "no_socs")
    os.makedirs(empty)
    run_failing("the pipeline with an empty soc_dir", [os.path.join(bin_dir, "asc"), "run", pipeline,
                                                       "--set", f"model={om}.om", "--set", f"soc_dir={empty}",
                                                       "--set", f"output={os.path.join(args.work, 'no_run')}"],
                15, f"backend 'roofline': unknown soc_version '{SOC}'; known in {empty}: (none)", env=env)
    # One backend, one input: the same outputs from all three runs.
    outputs = [np.load(only(os.path.join(dump_run, "run", "*.npy"))),
               np.load(only(os.path.join(profile_run, "run", "*.npy"))),
               np.load(only(os.path.join(pipeline_run, "outputs", "*.npy")))]
    check(all(np.array_equal(outputs[0], o) for o in outputs[1:]), "the three roofline runs' outputs differ")

    # The golden: the ONNX model on the reference backend, every node dumped, with its weights as
    # the .om holds them. atc (force_fp16) rounds every float weight to fp16 and the roofline
    # backend runs them widened back to float32, so against the float32 weights the difference
    # is the network's sensitivity to that rounding, which a deep random network amplifies
    # (measured: cosine 0.99999 after layer1, 0.9938 at layer4.2.conv2, 0.9998 at the logits).
    # With the same rounded weights only the float32 summation order differs (measured: max abs
    # error 2e-5, cosine > 1 - 1e-11): abs 1e-4 / rel 1e-3, and 0.1 % of elements may fail
    # the relative criterion where the golden is near 0 (measured at most 0.05 %).
    rounded = fp16_weights(onnx_path, os.path.join(args.models, "resnet50_fp16_weights.onnx"))
    golden = os.path.join(args.work, "reference_dump")
    run_reference(args, bin_dir, env, rounded, sample, os.path.join(args.work, "reference_fp16_weights"), golden)
    report = os.path.join(args.work, "validate.json")
    run("op_validate", [os.path.join(bin_dir, "op_validate"), f"--golden_dir={golden}",
                        f"--actual_dir={os.path.join(dump_run, 'dump')}", "--abs_tolerance=1e-4",
                        "--rel_tolerance=1e-3", "--error_rate_threshold=1e-3", f"--output={report}", "--quiet"],
        env=env)
    with open(report) as f:
        validation = json.load(f)
    check(validation["result"] == "pass", f"op_validate: {validation['result']}")
    check(validation["summary"]["compared"] >= 57, f"op_validate compared only {validation['summary']}")
    # Against the float32 ONNX model itself: the logits agree (cosine >= 0.999, as
    # tests/models/check_npu_against_torch.py asks of the NPU simulator's fp16 run).
    float_out = os.path.join(args.work, "reference_out")
    run_reference(args, bin_dir, env, onnx_path, sample, float_out)
    golden_logits = np.load(only(os.path.join(float_out, "*.npy"))).astype(np.float64).ravel()
    logits = outputs[0].astype(np.float64).ravel()
    cosine = float(np.dot(logits, golden_logits) / (np.linalg.norm(logits) * np.linalg.norm(golden_logits)))
    check(cosine >= 0.999, f"logits against the float32 ONNX model: cosine {cosine:.6f} < 0.999")
    print(f"op_validate: {validation['summary']}; logits against float32 weights: cosine {cosine:.6f}")

    # modelTrade on the profile; the report names the model's operators.
    prof = only(os.path.join(profile_run, "profiler", "PROF_*"))
    perf = os.path.join(args.work, "perf.json")
    run("modelTrade", [os.path.join(bin_dir, "modelTrade"), f"--report={prof}", f"--output={perf}", "--format=json",
                       "--model_name=resnet50", f"--soc_version={SOC}", "--quiet"], env=env)
    with open(perf) as f:
        trade = json.load(f)
    with open(os.path.join(prefix, "share", "ascend-tools", "soc", f"{SOC}.yaml")) as f:
        soc = yaml.safe_load(f)
    summary = check_profile_times(prof, soc)
    # The report names the model's operators (op_summary's tasks) and the host-link copies.
    named = {op["op_name"] for op in trade["op_summary"]}
    check(named == {row["Op Name"] for row in summary} | {"MEMCPY_ASYNC"},
          "modelTrade's operators are not op_summary's and the copies")
    # Its total: the tasks plus, per inference, the copies of the input (1x3x224x224 float32) and
    # the logits (1x1000 float32) over the SoC's host link.
    copies_us = LOOPS * (3 * 224 * 224 * 4 + 1000 * 4) / (soc["pcie_bandwidth_gbs"] * 1e3)
    total_us = sum(float(row["Task Duration(us)"]) for row in summary) + copies_us
    check(abs(trade["total_time"] - total_us) <= 0.01 + 1e-5 * total_us,
          f"modelTrade total_time {trade['total_time']} us, the tasks and copies make {total_us:.3f} us")
    # msprof's collection (PROFILER_SAMPLECONFIG) reaches the roofline backend through ais_bench too.
    msprof_out = os.path.join(args.work, "msprof")
    run("msprof ais_bench --backend roofline", [os.path.join(bin_dir, "msprof"), f"--output={msprof_out}",
                                                os.path.join(bin_dir, "ais_bench"), f"--model={om}.om",
                                                "--backend=roofline", "--warmup_count=0"], env=env)
    run("modelTrade on msprof's profile", [os.path.join(bin_dir, "modelTrade"), f"--report={msprof_out}",
                                           f"--output={os.path.join(args.work, 'msprof_perf.json')}", "--quiet"],
        env=env)
    # The pipeline wrote its profile too.
    only(os.path.join(pipeline_run, "profiler", "PROF_*", "mindstudio_profiler_output", "op_summary_*.csv"))

    STEPS.append(("total", time.monotonic() - total))
    print("; ".join(f"{name} {seconds:.1f} s" for name, seconds in STEPS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
