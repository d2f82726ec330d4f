#!/usr/bin/python3
"""The simulator against published Ascend card figures (bench/calibration/points.yaml).

    bench/calibration/calibration_report.py [--build-dir build] [--cache-dir DIR] [--only ID,...]
        [--no-write] [--jobs 2] [--breakdown ID]

For every point: exports the model once (tools/export_model.py, dynamic batch, opset 13), compiles
it with `atc` for the point's SoC at its batch (cached under --cache-dir, keyed by the ONNX file,
the compiler's plugins, the SoC files and the flags, so a changed compiler, fusion pass or timing
model recompiles),
runs `ais_bench --timing_only 1` and compares the simulated throughput (1000 x batch / NPU compute
time, ais_bench's definition) with the published one. Prints per point both figures and the
error of the simulated time, then the mean absolute error (MAE) of the tuned and hold-out sets.

--breakdown ID also profiles that point (timing only) and prints where its simulated time goes:
per operator type, and the longest tasks with their bounding pipe.

Unless --no-write (or --only), writes configs/soc/calibration.json: the MAE and point counts that
ais_bench and modelTrade print next to simulated times, and the SoCs the points cover (other SoCs
are reported as not calibrated).
"""
import argparse
import collections
import concurrent.futures
import csv
import glob
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POINTS = os.path.join(ROOT, "bench", "calibration", "points.yaml")
SOC_DIR = os.path.join(ROOT, "configs", "soc")
ERROR_FILE = os.path.join(SOC_DIR, "calibration.json")


def file_digest(digest, path):
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)


def export(model, cache_dir):
    """The model's ONNX file, exported once."""
    path = os.path.join(cache_dir, "onnx", model + ".onnx")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), model, path, "--opset", "13"],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def compile_key(onnx, soc, flags, plugins):
    digest = hashlib.sha1()
    stat = os.stat(onnx)
    digest.update(f"{onnx}:{stat.st_size}:{stat.st_mtime_ns}:{flags}".encode())
    for plugin in plugins:
        file_digest(digest, plugin)
    for path in (os.path.join(SOC_DIR, soc + ".yaml"), os.path.join(SOC_DIR, "ops_info", soc + ".yaml"),
                 os.path.join(SOC_DIR, "ops_info", "ai_core_common.yaml")):
        if os.path.exists(path):
            file_digest(digest, path)
    return digest.hexdigest()[:16]


def compile_model(point, model, onnx, bins, cache_dir, plugins):
    shape = model["input"].format(batch=point["batch"])
    flags = f"--input_shape={shape} {model.get('atc', '')}".strip()
    key = compile_key(onnx, point["soc"], flags, plugins)
    om = os.path.join(cache_dir, "om", f"{point['id']}-{key}.om")
    if not os.path.exists(om):
        os.makedirs(os.path.dirname(om), exist_ok=True)
        command = [os.path.join(bins, "atc"), f"--model={onnx}", "--framework=5", f"--output={om[:-3]}",
                   f"--soc_version={point['soc']}"] + flags.split()
        # In the cache: atc writes fusion_result.json into its working directory.
        result = subprocess.run(command, capture_output=True, text=True, cwd=os.path.dirname(om))
        if result.returncode != 0:
            raise RuntimeError(f"{point['id']}: atc failed:\n{result.stdout}{result.stderr}")
    return om


def simulate(point, om, bins):
    """Simulated NPU compute time of one inference, in ms (timing only)."""
    command = [os.path.join(bins, "ais_bench"), "--model", om, "--loop", "1", "--warmup_count", "0",
               "--timing_only", "1", "--batchsize", str(point["batch"])]
    result = subprocess.run(command, capture_output=True, text=True)
    match = re.search(r"NPU_compute_time \(ms\): .*?mean = ([0-9.eE+-]+)", result.stdout)
    if result.returncode != 0 or match is None:
        raise RuntimeError(f"{point['id']}: ais_bench failed:\n{result.stdout}{result.stderr}")
    return float(match.group(1))


def breakdown(point, om, bins):
    """Where the point's simulated time goes: per operator type and the longest tasks."""
    with tempfile.TemporaryDirectory() as out:
        command = [os.path.join(bins, "ais_bench"), "--model", om, "--loop", "1", "--warmup_count", "0",
                   "--timing_only", "1", "--profiler", "1", "--output", out, "--output_dirname", "o"]
        subprocess.run(command, check=True, capture_output=True)
        summary = glob.glob(os.path.join(out, "profiler", "PROF_*", "mindstudio_profiler_output", "op_summary_*.csv"))
        with open(summary[0]) as handle:
            rows = list(csv.DictReader(handle))
    total = sum(float(row["Task Duration(us)"]) for row in rows)
    print(f"\n{point['id']}: {len(rows)} tasks, {total / 1000:.3f} ms simulated")
    by_type = collections.defaultdict(lambda: [0, 0.0])
    for row in rows:
        by_type[row["OP Type"]][0] += 1
        by_type[row["OP Type"]][1] += float(row["Task Duration(us)"])
    for op_type, (count, us) in sorted(by_type.items(), key=lambda item: -item[1][1]):
        print(f"  {op_type:20} {count:4} tasks {us / 1000:8.3f} ms {100 * us / total:5.1f} %")
    pipes = ("mac", "vec", "mte1", "mte2", "mte3", "scalar")
    print("  longest tasks (pipe ratios: the busiest bounds the task)")
    for row in sorted(rows, key=lambda r: -float(r["Task Duration(us)"]))[:8]:
        ratios = " ".join(f"{pipe} {float(row[pipe + '_ratio']):.2f}" for pipe in pipes if row.get(pipe + "_ratio", "N/A") not in ("N/A", ""))
        print(f"  {row['Op Name'][-44:]:44} {float(row['Task Duration(us)']):9.1f} us  {row['Input Shapes'][:40]:40} {ratios}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--cache-dir", help="exports and compiled models (default: BUILD/calibration)")
    parser.add_argument("--only", help="comma-separated point ids (implies --no-write)")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {os.path.relpath(ERROR_FILE, ROOT)}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--breakdown", help="a point id: also print where its simulated time goes")
    args = parser.parse_args()
    bins = os.path.join(args.build_dir, "bin")
    cache_dir = args.cache_dir or os.path.join(args.build_dir, "calibration")
    # What atc compiles with: the parser, the operators' cost facts, the fusion passes, the backend.
    plugins = [os.path.join(args.build_dir, "lib", "asc", "plugins", name + ".so")
               for name in ("parser_onnx", "ops_builtin", "fusion", "backend_npusim")]
    for path in [os.path.join(bins, "atc"), os.path.join(bins, "ais_bench")] + plugins:
        if not os.path.exists(path):
            sys.exit(f"calibration_report: {path} is missing: "
                     f"ninja -C {args.build_dir} atc ais_bench backend_npusim parser_onnx ops_builtin fusion")

    with open(POINTS) as handle:
        config = yaml.safe_load(handle)
    points = config["points"]
    if args.only:
        wanted = set(args.only.split(","))
        points = [p for p in points if p["id"] in wanted]
        args.no_write = True
    start = time.monotonic()
    onnx = {name: export(name, cache_dir) for name in sorted({p["model"] for p in points})}
    exported = time.monotonic()

    compiled = {}

    def run(point):
        om = compile_model(point, config["models"][point["model"]], onnx[point["model"]], bins, cache_dir, plugins)
        compiled[point["id"]] = om
        return simulate(point, om, bins)

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            simulated_ms = list(pool.map(run, points))
    except RuntimeError as error:
        sys.exit(f"calibration_report: {error}")
    elapsed = time.monotonic() - exported

    print(f"{'point':24} {'set':8} {'published fps':>14} {'simulated fps':>14} {'pub ms':>9} {'sim ms':>9} {'error':>8}")
    errors = {"tuned": [], "holdout": []}
    for point, sim_ms in zip(points, simulated_ms):
        published_ms = 1000.0 * point["batch"] / point["fps"]
        error = sim_ms / published_ms - 1  # of the simulated time
        errors[point["set"]].append(abs(error))
        print(f"{point['id']:24} {point['set']:8} {point['fps']:14.1f} {1000.0 * point['batch'] / sim_ms:14.1f} "
              f"{published_ms:9.3f} {sim_ms:9.3f} {100 * error:+7.1f}%")
    summary = {}
    for name, values in errors.items():
        if values:
            summary[name] = {"mae_percent": round(100 * sum(values) / len(values), 1), "points": len(values)}
            print(f"MAE {name}: {summary[name]['mae_percent']:.1f} % over {len(values)} points")
    print(f"(exports {exported - start:.1f} s, compile and simulate {elapsed:.1f} s)")
    if args.breakdown:
        chosen = [p for p in points if p["id"] == args.breakdown]
        if not chosen:
            sys.exit(f"calibration_report: no point '{args.breakdown}' (run without --only, or include it)")
        breakdown(chosen[0], compiled[args.breakdown], bins)

    if not args.no_write:
        document = {
            "description": "the simulator's calibration error: mean absolute error of the simulated time per "
                           "inference against published Ascend card figures (bench/calibration/points.yaml)",
            "command": "bench/calibration/calibration_report.py",
            "date": datetime.date.today().isoformat(),
            **summary,
            # The band holds for these SoCs only; ais_bench and modelTrade call the others not calibrated.
            "socs": sorted({p["soc"] for p in points}),
        }
        fd, tmp = tempfile.mkstemp(dir=SOC_DIR, prefix=".calibration.")
        with os.fdopen(fd, "w") as handle:
            json.dump(document, handle, indent=2)
            handle.write("\n")
        os.replace(tmp, ERROR_FILE)
        print(f"wrote {os.path.relpath(ERROR_FILE, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
