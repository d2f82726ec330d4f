"""Seed 000's profiling snippet, verbatim, around a real inference: run_inference() (below the
imports it needs, above the snippet) executes the model given in $ASC_SNIPPET_MODEL once on a
fixed image with the acl module. Run in a scratch directory: the profile goes to
./profiling_output as in the seed."""
import os as _os

import numpy as _np


def run_inference(model_path):
    import acl as _acl
    model_id, ret = _acl.mdl.load_from_file(model_path)
    assert ret == 0, _acl.get_recent_err_msg()
    desc = _acl.mdl.create_desc()
    assert _acl.mdl.get_desc(desc, model_id) == 0
    image = _np.linspace(-1, 1, 3 * 32 * 32, dtype=_np.float32).reshape(1, 3, 32, 32)
    buffers = []
    for size, host in ((_acl.mdl.get_input_size_by_index(desc, 0), image),
                       (_acl.mdl.get_output_size_by_index(desc, 0), None)):
        pointer, ret = _acl.rt.malloc(size, 0)
        assert ret == 0
        if host is not None:
            assert _acl.rt.memcpy(pointer, size, _acl.util.numpy_to_ptr(host), size, 1) == 0
        dataset = _acl.mdl.create_dataset()
        _acl.mdl.add_dataset_buffer(dataset, _acl.create_data_buffer(pointer, size))
        buffers.append((pointer, size, dataset))
    assert _acl.mdl.execute(model_id, buffers[0][2], buffers[1][2]) == 0, _acl.get_recent_err_msg()
    scores = _np.zeros(buffers[1][1] // 4, _np.float32)
    assert _acl.rt.memcpy(_acl.util.numpy_to_ptr(scores), scores.nbytes, buffers[1][0], scores.nbytes, 2) == 0
    print("scores:", scores)
    for pointer, _, dataset in buffers:
        _acl.destroy_data_buffer(_acl.mdl.get_dataset_buffer(dataset, 0))
        _acl.mdl.destroy_dataset(dataset)
        _acl.rt.free(pointer)
    _acl.mdl.destroy_desc(desc)
    _acl.mdl.unload(model_id)


# enable Profiling in Ascend inference script using ACL API
import acl
import json
import os

# initialize ACL context
ret = acl.init()
if ret != 0:
    print(f"ACL init failed with error code: {ret}")
    exit(1)

ret = acl.rt.set_device(0)
if ret != 0:
    print(f"Set device failed with error code: {ret}")
    exit(1)

# configure Profiling
profiler_config = {
    "output": "./profiling_output",
    "task": "model_execute",
    "device_range": [0],
    "aicore_metrics": "PipeUtilization"
}
ret = acl.prof.start(profiler_config)
if ret != 0:
    print(f"Profiling start failed: {ret}")

# ===== run inference here =====
# model_execute.run(inputs)
run_inference(_os.environ["ASC_SNIPPET_MODEL"])
# =================================

# stop Profiling and generate report files
ret = acl.prof.stop()
if ret != 0:
    print(f"Profiling stop failed: {ret}")

ret = acl.finalize()
if ret != 0:
    print(f"ACL finalize failed: {ret}")

# parse Profiling report using modelTrade CLI
# command: modelTrade --report=./profiling_output --output=perf.json --format=json
print("Profiling data saved to ./profiling_output")
print("Run 'modelTrade --report=./profiling_output --output=perf.json' to generate report")
