#!/usr/bin/python3
"""Profiles of programs on libascendcl, read by the project's own tools.

Writes a small CNN (Conv, Relu, Conv, Relu, GlobalAveragePool, Flatten, Gemm, named nodes),
converts it with atc, then:
  1. runs tests/acl/pipeline_sample.cpp on 2 images with --aclprof DIR (aclprofInit ..
     aclprofFinalize around the run): DIR holds one PROF_*, and `modelTrade --report=DIR`
     exits 0 with a JSON report naming the model (small_cnn) and its operators: a kernel for each compute node
     (conv1 and conv2 with their Relu fused, pool, fc; Flatten is a view), and no name that is
     not an ONNX node, the atc-inserted casts of the fp16 boundary or the copies;
  2. runs the same program on 4 images under `msprof --output=DIR2` (two streams, each image's
     execution waiting for the previous one's through an event): its task_time CSV has, per
     stream, each image's copy in, kernels and copy out, two images per stream. In the order the
     AI core runs them, consecutive images are on different streams, and the copies are hidden:
     the AI core runs the images back to back (image i+1's kernels start when image i's end),
     image i+1's copy in is done by then, and from the second image on it runs while image i's
     kernels run (their [start, stop) intervals intersect). (The first two copies both start at
     once; which of them the host link takes first is not fixed.)

    check_profiles.py --bin build/bin --sample build/tests/acl/pipeline_sample --work DIR
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
import onnx
from onnx import TensorProto, helper, numpy_helper


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def write_cnn(path):
    rng = np.random.default_rng(3)
    weights = {"w1": rng.standard_normal((16, 3, 3, 3)) * 0.2, "b1": rng.standard_normal(16) * 0.1,
               "w2": rng.standard_normal((16, 16, 3, 3)) * 0.1, "b2": rng.standard_normal(16) * 0.1,
               "fc_w": rng.standard_normal((10, 16)) * 0.3, "fc_b": rng.standard_normal(10) * 0.1}
    nodes = [helper.make_node("Conv", ["image", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
             helper.make_node("GlobalAveragePool", ["r2"], ["pooled"], name="pool"),
             helper.make_node("Flatten", ["pooled"], ["flat"], name="flatten"),
             helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["scores"], name="fc", transB=1)]
    graph = helper.make_graph(
        nodes, "small_cnn", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 128, 128])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 10])],
        initializer=[numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return [node.name for node in nodes]


def only_prof(directory):
    found = glob.glob(os.path.join(directory, "PROF_*"))
    assert len(found) == 1, f"{directory}: expected one PROF_* directory, found {found}"
    return found[0]


def task_rows(prof):
    files = glob.glob(os.path.join(prof, "mindstudio_profiler_output", "task_time_*.csv"))
    assert len(files) == 1, files
    with open(files[0], newline="") as file:
        return list(csv.DictReader(file))


def check_report(args, om, nodes):
    prof_dir = os.path.join(args.work, "aclprof")
    shutil.rmtree(prof_dir, ignore_errors=True)
    run([args.sample, om, "2", "--aclprof", prof_dir])
    only_prof(prof_dir)
    report = os.path.join(args.work, "perf.json")
    run([os.path.join(args.bin, "modelTrade"), f"--report={prof_dir}", f"--output={report}", "--format=json"])
    with open(report) as file:
        parsed = json.load(file)
    ops = parsed["op_summary"]
    # The profile names the model it measured (PROF_*/device_0/info.json.0).
    assert parsed["model_name"] == "small_cnn", parsed["model_name"]
    names = [op["op_name"] for op in ops]
    print("report op names:", sorted(set(names)))
    missing = [node for node in ("conv1", "conv2", "pool", "fc") if node not in names]
    assert not missing, f"the report names no kernel for {missing}: {names}"
    unknown = [name for name in names if name not in nodes and name != "MEMCPY_ASYNC" and not name.startswith("Cast_")]
    assert not unknown, f"the report names operators the model does not have: {unknown}"



def check_overlap(args, om):
    prof_dir = os.path.join(args.work, "msprof")
    shutil.rmtree(prof_dir, ignore_errors=True)
    run([os.path.join(args.bin, "msprof"), f"--output={prof_dir}", args.sample, om, "4"])
    rows = task_rows(only_prof(prof_dir))
    streams = []
    for row in rows:
        if row["stream_id"] not in streams:
            streams.append(row["stream_id"])
    assert len(streams) == 2, f"expected the two streams' tasks, found streams {streams}"
    # Per stream, in order of start: images, each a copy in, kernels, a copy out.
    images = {stream: [] for stream in streams}
    for row in sorted(rows, key=lambda r: float(r["task_start(us)"])):
        tasks = images[row["stream_id"]]
        interval = (float(row["task_start(us)"]), float(row["task_stop(us)"]))
        if row["kernel_type"] == "MEMCPY_ASYNC":
            if not tasks or tasks[-1]["copy_out"] is not None:
                tasks.append({"copy_in": interval, "kernels": [], "copy_out": None})
            else:
                tasks[-1]["copy_out"] = interval
        else:
            tasks[-1]["kernels"].append(interval)
    assert all(len(images[stream]) == 2 for stream in streams), images
    sequence = sorted(((stream, image) for stream in streams for image in images[stream]),
                      key=lambda item: item[1]["kernels"][0][0])
    for i, (stream, image) in enumerate(sequence):
        assert image["kernels"] and image["copy_out"], f"image {i} is incomplete: {image}"
        print(f"image {i} (stream {stream}): copy in {image['copy_in']}, kernels "
              f"{image['kernels'][0][0]:.3f}..{image['kernels'][-1][1]:.3f}, copy out {image['copy_out']}")
    for i in range(3):
        (stream, image), (next_stream, following) = sequence[i], sequence[i + 1]
        kernels = (image["kernels"][0][0], image["kernels"][-1][1])
        copy_in = following["copy_in"]
        assert next_stream != stream, f"images {i} and {i + 1} ran on one stream"
        assert abs(following["kernels"][0][0] - kernels[1]) < 1e-3, \
            f"the AI core waited between image {i} (ends {kernels[1]}) and image {i + 1} ({following['kernels'][0][0]})"
        assert copy_in[1] <= kernels[1] + 1e-3, f"image {i + 1}'s copy in {copy_in} ends after image {i}'s kernels"
        if i >= 1:
            assert copy_in[0] < kernels[1] and copy_in[1] > kernels[0], \
                f"image {i + 1}'s copy in {copy_in} does not overlap image {i}'s kernels {kernels}"
    print("copies of the next image overlap each image's kernels; the AI core runs the images back to back: ok")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="directory with atc, msprof and modelTrade")
    parser.add_argument("--sample", required=True, help="the pipeline_sample executable")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    onnx_path = os.path.join(args.work, "small_cnn.onnx")
    nodes = write_cnn(onnx_path)
    om_base = os.path.join(args.work, "small_cnn")
    run([os.path.join(args.bin, "atc"), f"--model={onnx_path}", "--framework=5", f"--output={om_base}",
         "--soc_version=Ascend310", "--log=error"])
    check_report(args, om_base + ".om", nodes)
    check_overlap(args, om_base + ".om")
    return 0


if __name__ == "__main__":
    sys.exit(main())
