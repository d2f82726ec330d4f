"""Writes the seed corpora of the libFuzzer harnesses into CORPUS/<harness>/ (deterministic).

    make_seeds.py CORPUS BIN_DIR

fuzz_npy: small .npy files of several dtypes, orders and header versions; fuzz_atc_flags: atc
command lines (arguments NUL-separated) from docs/atc.md; fuzz_om: the payloads (the file after its
24-byte header) of .om files compiled by BIN_DIR/atc from two small models; fuzz_onnx: those two
models and two single-node ones (Conv and MaxPool with strides, pads, dilations); fuzz_pipeline_yaml: the
shipped pipelines (configs/pipelines); fuzz_msprof: the op_summary files of tests/profiler/data,
one with a task_time CSV and a timeline JSON after it (NUL-separated, as the harness splits).
"""
import glob
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "robustness"))
import make_inputs  # noqa: E402  (the robustness catalogue's model builders)

CORPUS, BIN = sys.argv[1], os.path.abspath(sys.argv[2])


def write(harness, name, data):
    os.makedirs(os.path.join(CORPUS, harness), exist_ok=True)
    with open(os.path.join(CORPUS, harness, name), "wb") as f:
        f.write(data)


def npy_bytes(array, version=None):
    buffer = io.BytesIO()
    if version is None:
        np.save(buffer, array)
    else:
        np.lib.format.write_array(buffer, array, version=version)
    return buffer.getvalue()


write("fuzz_npy", "f32_2x3.npy", npy_bytes(np.arange(6, dtype=np.float32).reshape(2, 3)))
write("fuzz_npy", "f16_scalar.npy", npy_bytes(np.float16(1.5)))
write("fuzz_npy", "bool_4.npy", npy_bytes(np.array([True, False, True, True])))
write("fuzz_npy", "i16_fortran.npy", npy_bytes(np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4))))
write("fuzz_npy", "u8_v2.npy", npy_bytes(np.arange(5, dtype=np.uint8), version=(2, 0)))
write("fuzz_npy", "f64_big_endian.npy", npy_bytes(np.arange(3, dtype=">f8")))

COMMAND_LINES = [
    ["--model=resnet50.onnx", "--framework=5", "--output=resnet50", "--soc_version=Ascend310P3"],
    ["--model=m.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3", "--input_shape=input:1,3,224,224",
     "--precision_mode=allow_fp32_to_fp16", "--out_nodes=conv1:0;fc:0"],
    ["--model=m.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3", "--input_shape=input:-1,3,224,224",
     "--dynamic_batch_size=1,2,4,8"],
    ["--model=m.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3", "--input_shape=images:1,3,-1,-1",
     "--dynamic_image_size=320,320;640,640", "--output_type=FP32", "--keep_dtype=keep.cfg"],
    ["--mode=1", "--om=m.om", "--json=m.json"],
    ["-model", "m.onnx", "-framework", "5", "-output", "m", "-soc-version", "Ascend310P3", "--log=debug", "--help"],
]
for index, arguments in enumerate(COMMAND_LINES):
    write("fuzz_atc_flags", f"command_{index}", b"\0".join(a.encode() for a in arguments))

with tempfile.TemporaryDirectory() as work:
    context = {"bin": BIN, "source": os.path.dirname(os.path.dirname(HERE)), "cache": os.path.join(work, "cache")}
    make_inputs.tiny_cnn(work, context, file="tiny.onnx")
    make_inputs.growing_model(work, context, file="growing.onnx")
    make_inputs.small_model(work, context, op="MaxPool", file="maxpool.onnx",
                            attributes={"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]})
    make_inputs.small_model(work, context, op="Conv", file="conv.onnx",
                            attributes={"strides": [2, 1], "dilations": [1, 2], "group": 1})
    for name in ("tiny", "growing", "maxpool", "conv"):
        with open(os.path.join(work, name + ".onnx"), "rb") as f:
            write("fuzz_onnx", name + ".onnx", f.read())
    for name in ("tiny", "growing"):
        subprocess.run([os.path.join(BIN, "atc"), f"--model={name}.onnx", "--framework=5", f"--output={name}",
                        "--soc_version=Ascend310P3"], cwd=work, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(work, name + ".om"), "rb") as f:
            write("fuzz_om", name + ".payload", f.read()[24:])

SOURCE = os.path.dirname(os.path.dirname(HERE))
for pipeline in sorted(glob.glob(os.path.join(SOURCE, "configs", "pipelines", "*.yaml"))):
    with open(pipeline, "rb") as f:
        write("fuzz_pipeline_yaml", os.path.basename(pipeline), f.read())

TASK_TIME = (b"Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n"
             b"0,conv1,KERNEL_AICORE,2,1,12.5,1000.0,1012.5\n0,MemcpyAsync,MEMCPY_ASYNC,2,2,3.0,1013.0,1016.0\n")
TIMELINE = (b'{"traceEvents": [{"name": "conv1", "ph": "X", "ts": "1000.0", "dur": 12.5, "pid": 1, "tid": 2, '
            b'"args": {"Physic Stream Id": 2, "Task Id": 1}}]}')
# Both header generations: resnet_block_num's PROF_* sits one directory deeper (profiling_output/).
for index, csv in enumerate(sorted(glob.glob(os.path.join(SOURCE, "tests", "profiler", "data", "**", "op_summary_*.csv"),
                                             recursive=True))):
    with open(csv, "rb") as f:
        op_summary = f.read()
    write("fuzz_msprof", f"op_summary_{index}", op_summary)
    if index == 0:
        write("fuzz_msprof", "with_task_time_and_timeline", op_summary + b"\0" + TASK_TIME + b"\0" + TIMELINE)
