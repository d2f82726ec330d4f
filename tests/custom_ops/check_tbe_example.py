#!/usr/bin/python3
"""The TBE custom-operator example end to end (docs/custom_ops.md):

1. install the build into a temporary prefix and build examples/fused_conv_bn_relu against it
   (find_package(AscSdk), nothing from the source tree);
2. generate the small ResNet-style model and its rewrite with com.example::FusedConvBnRelu
   (examples/fused_conv_bn_relu/make_model.py);
3. atc --op_lib_path=<the example's build> on the rewrite for Ascend310P3, with TE_LOG_LEVEL=debug
   (the schedule and its buffer footprints are printed); without --op_lib_path the custom op is
   EE2001;
4. ais_bench runs the .om with --dump, and with --profiler;
5. op_validate compares the dump with the reference backend's run of the *unfused* model: every
   custom-op row at cosine >= 0.9999 and the fp16 network criteria;
6. modelTrade reads the profile: the custom kernel is an AI_CORE task with Cube (mac), Vector
   (vec) and MTE2 time;
7. the plugin's own fusion rule: atc --op_lib_path on the *unfused* model turns its three
   Conv+BN+Relu chains into the custom op (fusion_result.json counts them; op_validate compares
   the run at the Relus through the nodes' provenance); with the seed's switch file spelling
   {switch:{CustomFusion:false}} the rule does not run and the built-in fusions take the chains.

    check_tbe_example.py --build BUILD --source SRC --work DIR --generator Ninja --cxx c++
"""
import argparse
import csv
import glob
import json
import os
import shutil
import subprocess
import sys

import numpy as np

SOC = "Ascend310P3"
OP = "FusedConvBnRelu"


def run(description, command, env=None, cwd=None):
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"FAILED: {description} (exit {result.returncode}): {' '.join(command)}\n"
                 f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")
    return result


def check(condition, message):
    if not condition:
        sys.exit(f"FAILED: {message}")


def only(pattern):
    found = glob.glob(pattern)
    check(len(found) == 1, f"expected one match of {pattern}, found {found}")
    return found[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--generator", default="Ninja")
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--launcher", default="")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prefix, example_build, models = (os.path.join(work, d) for d in ("prefix", "example-build", "models"))
    bin_dir = os.path.join(prefix, "bin")
    example = os.path.join(args.source, "examples", "fused_conv_bn_relu")

    # 1. The example against the installed SDK.
    run("install the build", ["cmake", "--install", args.build, "--prefix", prefix])
    configure = ["cmake", "-S", example, "-B", example_build, "-G", args.generator, f"-DCMAKE_CXX_COMPILER={args.cxx}",
                 "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}"]
    if args.launcher:
        configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={args.launcher}")
    run("configure the example against the installed SDK", configure)
    run("build the example", ["cmake", "--build", example_build])
    check(os.path.isfile(os.path.join(example_build, "fused_conv_bn_relu.so")), "the example built no plugin")

    # 2. The models.
    out = run("make_model.py", [sys.executable, os.path.join(example, "make_model.py"), models]).stdout
    check("3 Conv+BatchNormalization+Relu chains replaced" in out, f"make_model.py: {out}")
    original, fused = os.path.join(models, "resnet_small.onnx"), os.path.join(models, "resnet_small_fused.onnx")
    sample = os.path.join(models, "input.npy")

    # 3. atc, only the installed tree and the example's plugin.
    env = dict(os.environ, ASC_LOG_LEVEL="error")
    for variable in ("ASC_SOC_DIR", "ASC_PLUGIN_PATH", "TE_LOG_LEVEL"):
        env.pop(variable, None)
    om = os.path.join(work, "resnet_small_fused")
    atc = [os.path.join(bin_dir, "atc"), f"--model={fused}", "--framework=5", f"--output={om}", f"--soc_version={SOC}",
           "--log=error"]
    missing = subprocess.run(atc, env=env, capture_output=True, text=True)
    check(missing.returncode == 12 and "EE2001" in missing.stdout + missing.stderr and OP in missing.stdout + missing.stderr,
          f"atc without --op_lib_path: exit {missing.returncode}\n{missing.stdout}{missing.stderr}")
    compiled = run("atc --op_lib_path", atc + [f"--op_lib_path={example_build}"], env=dict(env, TE_LOG_LEVEL="debug"))
    schedule = compiled.stdout + compiled.stderr
    for text in ("[TBE] schedule for Ascend310P3: Cube task, Vector epilogue fused", "L0A:", "L0B:", "L0C:", "L1:",
                 "UB:"):
        check(text in schedule, f"TE_LOG_LEVEL=debug printed no '{text}':\n{schedule}")
    check(os.path.isfile(om + ".om"), "atc wrote no .om")

    # 4. ais_bench: dump and profile.
    bench = [os.path.join(bin_dir, "ais_bench"), "--model", om + ".om", "--input", sample, "--warmup_count", "0",
             "--outfmt", "NPY"]
    dump_run, profile_run = os.path.join(work, "bench_dump"), os.path.join(work, "bench_profile")
    out = run("ais_bench --dump", bench + ["--output", dump_run, "--output_dirname", "run", "--dump", "1"], env=env).stdout
    check("NPU_compute_time" in out, f"ais_bench printed no summary:\n{out}")
    run("ais_bench --profiler", bench + ["--output", profile_run, "--output_dirname", "run", "--profiler", "1"], env=env)

    # 5. The golden: the unfused model on the reference backend, every node dumped.
    golden = os.path.join(work, "reference_dump")
    run("reference backend", [os.path.join(bin_dir, "asc"), "run",
                              os.path.join(args.source, "configs", "pipelines", "run_reference.yaml"),
                              "--set", f"model={original}", "--set", f"inputs={sample}",
                              "--set", f"output_dir={os.path.join(work, 'reference_out')}",
                              "--set", f"dump_dir={golden}"], env=env)
    report = os.path.join(work, "validate.json")
    run("op_validate", [os.path.join(bin_dir, "op_validate"), f"--golden_dir={golden}",
                        f"--actual_dir={os.path.join(dump_run, 'dump')}", f"--output={report}", "--quiet"], env=env)
    with open(report) as f:
        validation = json.load(f)
    check(validation["result"] == "pass", f"op_validate: {validation['result']}")
    custom_rows = [row for row in validation["rows"] if row.get("actual_op_type") == OP or row.get("op_type") == OP]
    check(len(custom_rows) == 3, f"op_validate compared {len(custom_rows)} {OP} rows, expected 3: "
                                 f"{[sorted(row) for row in validation['rows'][:1]]}")
    for row in custom_rows:
        cosine = row["comparison"]["metrics"]["CosineSimilarity"]
        check(cosine >= 0.9999, f"{row.get('node')}: cosine {cosine} < 0.9999")
    logits = np.load(only(os.path.join(dump_run, "run", "*.npy"))).astype(np.float64).ravel()
    reference = np.load(only(os.path.join(work, "reference_out", "*.npy"))).astype(np.float64).ravel()
    cosine = float(np.dot(logits, reference) / (np.linalg.norm(logits) * np.linalg.norm(reference)))
    check(cosine >= 0.9999, f"logits: cosine {cosine} < 0.9999")
    print(f"op_validate: {validation['summary']}; custom-op cosines "
          f"{[round(row['comparison']['metrics']['CosineSimilarity'], 7) for row in custom_rows]}; logits {cosine:.7f}")

    # 6. modelTrade on the profile; the custom kernel's pipes in op_summary.
    prof = only(os.path.join(profile_run, "profiler", "PROF_*"))
    perf = os.path.join(work, "perf.json")
    run("modelTrade", [os.path.join(bin_dir, "modelTrade"), f"--report={prof}", f"--output={perf}", "--format=json",
                       "--model_name=resnet_small_fused", f"--soc_version={SOC}", "--quiet"], env=env)
    with open(perf) as f:
        trade = json.load(f)
    check(any(op.get("op_type") == OP for op in trade["op_summary"]), f"modelTrade lists no {OP}")
    with open(only(os.path.join(prof, "mindstudio_profiler_output", "op_summary_*.csv")), newline="") as f:
        rows = [row for row in csv.DictReader(f) if row["OP Type"] == OP]
    check(len(rows) == 3, f"op_summary has {len(rows)} {OP} tasks")
    for row in rows:
        check(row["Task Type"] == "AI_CORE", f"{row['Op Name']}: task type {row['Task Type']}")
        for column in ("aic_mac_time(us)", "aic_vec_time(us)", "aic_mte2_time(us)"):
            value = row.get(column, row.get(column.replace("aic_", "")))
            check(value is not None and float(value) > 0, f"{row['Op Name']}: {column} is {value}")
    print("; ".join(f"{r['Op Name']}: {r['Task Duration(us)']} us" for r in rows))

    # 7. The plugin's fusion rule on the unfused model, on and off.
    rule = "ConvBnReluToFusedConvBnRelu"
    for switch in ("on", "off"):
        cwd = os.path.join(work, f"fusion_{switch}")
        os.makedirs(cwd)
        command = [os.path.join(bin_dir, "atc"), f"--model={original}", "--framework=5",
                   f"--output={os.path.join(cwd, 'net')}", f"--soc_version={SOC}", "--log=error",
                   f"--op_lib_path={example_build}"]
        if switch == "off":
            with open(os.path.join(cwd, "fusion.cfg"), "w") as f:
                f.write("{switch:{Fusion:true,ConvBatchNorm:true,ConvReLU:true,MatMulBiasAdd:true,CustomFusion:false}}\n")
            command.append(f"--fusion_switch_file={os.path.join(cwd, 'fusion.cfg')}")
        run(f"atc on the unfused model, CustomFusion {switch}", command, env=env, cwd=cwd)
        with open(os.path.join(cwd, "fusion_result.json")) as f:
            result = json.load(f)
        passes = {p["name"]: p for p in result["asc"]["passes"]}
        check(rule in passes, f"fusion_result.json lists no {rule}: {sorted(passes)}")
        graph_fusion = result["session_and_graph_id_0_0"].get("graph_fusion", {})
        if switch == "on":
            check(passes[rule]["ran"] and passes[rule]["effect_times"] == 3,
                  f"{rule}: {passes[rule]} (expected 3 rewrites)")
            check(graph_fusion.get(rule) == {"effect_times": "3", "match_times": "3"}, f"graph_fusion: {graph_fusion}")
        else:
            check(not passes[rule]["ran"] and "fusion.cfg" in passes[rule].get("disabled_by", ""),
                  f"{rule} with CustomFusion false: {passes[rule]}")
            check(rule not in graph_fusion, f"graph_fusion lists {rule} although it was off")
        fused_run = os.path.join(cwd, "bench")
        run(f"ais_bench, CustomFusion {switch}", [os.path.join(bin_dir, "ais_bench"), "--model",
                                                  os.path.join(cwd, "net.om"), "--input", sample, "--warmup_count", "0",
                                                  "--outfmt", "NPY", "--output", fused_run, "--output_dirname", "run",
                                                  "--dump", "1"], env=env)
        with open(os.path.join(fused_run, "dump", "manifest.json")) as f:
            manifest = json.load(f)
        custom = {name: n for name, n in manifest["nodes"].items() if n["op_type"] == OP}
        check(len(custom) == (3 if switch == "on" else 0), f"CustomFusion {switch}: {len(custom)} {OP} nodes ran")
        for name, node in custom.items():
            check(len(node["provenance"]) == 3 and node["provenance"][-1] == name,
                  f"{name}: provenance {node['provenance']}")
        report = os.path.join(cwd, "validate.json")
        run(f"op_validate, CustomFusion {switch}", [os.path.join(bin_dir, "op_validate"), f"--golden_dir={golden}",
                                                    f"--actual_dir={os.path.join(fused_run, 'dump')}",
                                                    f"--output={report}", "--quiet"], env=env)
    print(f"fusion rule {rule}: 3 rewrites when on, none with CustomFusion false; both runs validated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
