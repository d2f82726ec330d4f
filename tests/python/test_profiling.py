"""acl.prof: the seed's snippet (acl.prof.start(dict) / acl.prof.stop()) verbatim around a real
inference, read by `modelTrade --report=./profiling_output`; and pyACL's own calls
(init, create_config, start, stop, destroy_config, finalize) read by ascend_tools.model_trade."""
import glob
import json
import os
import subprocess
import sys

import numpy as np

import acl
import ascend_tools

HERE = os.path.dirname(os.path.abspath(__file__))
ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_AICORE_METRICS = 0x0001, 0x0002, 0x0004


def test_seed_snippet_profile_is_read_by_model_trade(models, tmp_path):
    environment = dict(os.environ, ASC_SNIPPET_MODEL=models["small_cnn"])
    completed = subprocess.run([sys.executable, os.path.join(HERE, "seed_profiling_snippet.py")], cwd=tmp_path,
                               env=environment, capture_output=True, text=True)
    print(completed.stdout, completed.stderr)
    assert completed.returncode == 0
    assert "failed" not in completed.stdout
    assert len(glob.glob(str(tmp_path / "profiling_output" / "PROF_*"))) == 1
    # The seed's command, in the directory the snippet ran in.
    command = [os.path.join(ascend_tools.bin_dir(), "modelTrade"), "--report=./profiling_output",
               "--output=perf.json", "--format=json"]
    analysed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    print(analysed.stdout, analysed.stderr)
    assert analysed.returncode == 0
    with open(tmp_path / "perf.json") as file:
        report = json.load(file)
    names = " ".join(op["op_name"] for op in report["op_summary"])
    for node in ("conv", "fc"):
        assert node in names, f"no kernel of node {node} in {names}"
    assert report["total_time"] > 0
    assert report["model_name"] == "small_cnn"


def test_pyacl_prof_calls(models, tmp_path):
    output = str(tmp_path / "prof")
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    assert acl.prof.init(output) == 0
    # The usual pyACL form: metrics 0 (ArithmeticUtilization: accepted, written without PMU columns).
    # An unknown metrics group is refused (no config), as from C (int_enum_calls.c).
    assert acl.prof.create_config([0], 1000, 0, ACL_PROF_TASK_TIME) == 0
    config = acl.prof.create_config([0], 0, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS)
    assert config != 0
    assert acl.prof.start(config) == 0
    model_id, ret = acl.mdl.load_from_file(models["affine"])
    assert ret == 0
    x = np.arange(8, dtype=np.float32)
    source, _ = acl.rt.malloc(32, 0)
    target, _ = acl.rt.malloc(32, 0)
    assert acl.rt.memcpy(source, 32, acl.util.numpy_to_ptr(x), 32, 1) == 0
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(source, 32))
    acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(target, 32))
    assert acl.mdl.execute(model_id, inputs, outputs) == 0
    assert acl.prof.stop(config) == 0
    assert acl.prof.stop(config) == 100043  # ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.destroy_config(config) == 0
    assert acl.prof.finalize() == 0
    assert acl.mdl.unload(model_id) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0

    report = ascend_tools.model_trade(output)
    kinds = [op["op_name"] for op in report["op_summary"]]
    assert kinds, report
    tasks = glob.glob(os.path.join(output, "PROF_*", "mindstudio_profiler_output", "task_time_*.csv"))
    assert len(tasks) == 1
    with open(tasks[0]) as file:
        rows = file.read().splitlines()
    assert rows[1].split(",")[2] == "MEMCPY_ASYNC"  # the input's copy, then the kernels
