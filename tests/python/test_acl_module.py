"""The pyACL-compatible `acl` module over libascendcl: pyACL's names and return conventions
(ret, or a tuple ending in ret), device memory, streams, events, callbacks, models, datasets,
dynamic batch, and the numpy/bytes pointer helpers."""
import threading

import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_INVALID_MODEL_ID = 100011
ACL_ERROR_RT_MEMORY_FREE = 207002
HOST_TO_DEVICE, DEVICE_TO_HOST = 1, 2
NPY_FLOAT32 = 11


@pytest.fixture
def device():
    assert acl.init() == ACL_SUCCESS
    assert acl.rt.set_device(0) == ACL_SUCCESS
    yield
    assert acl.rt.reset_device(0) == ACL_SUCCESS
    assert acl.finalize() == ACL_SUCCESS


def to_device(array):
    pointer, ret = acl.rt.malloc(array.nbytes, 0)
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(pointer, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, HOST_TO_DEVICE) == 0
    return pointer


def test_calls_before_init_return_their_code():
    assert acl.rt.set_device(0) == ACL_ERROR_UNINITIALIZE
    pointer, ret = acl.rt.malloc(16, 0)
    assert ret == ACL_ERROR_UNINITIALIZE
    assert "aclInit" in acl.get_recent_err_msg()


def test_devices_contexts_streams_events(device):
    assert acl.rt.get_device_count() == (1, ACL_SUCCESS)
    assert acl.rt.get_device() == (0, ACL_SUCCESS)
    assert acl.rt.get_run_mode() == (1, ACL_SUCCESS)  # ACL_HOST
    context, ret = acl.rt.create_context(0)
    assert ret == ACL_SUCCESS and context != 0
    assert acl.rt.get_context() == (context, ACL_SUCCESS)
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    start, ret = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    # 64 MiB over the fallback 8 GB/s host link: 8.389 simulated ms between the events.
    host = np.ones(16 << 20, np.float32)
    target, ret = acl.rt.malloc(host.nbytes, 0)
    assert acl.rt.record_event(start, stream) == ACL_SUCCESS
    assert acl.rt.memcpy_async(target, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, HOST_TO_DEVICE,
                               stream) == ACL_SUCCESS
    assert acl.rt.record_event(end, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_event(end) == ACL_SUCCESS
    assert acl.rt.query_event(end) == (0, ACL_SUCCESS)  # ACL_EVENT_STATUS_COMPLETE
    elapsed, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == ACL_SUCCESS
    assert elapsed == pytest.approx(host.nbytes / 8e9 * 1e3, rel=0.2)
    free, total, ret = acl.rt.get_mem_info(0)
    assert ret == ACL_SUCCESS and total - free >= host.nbytes
    for event in (start, end):
        assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.free(target) == ACL_SUCCESS
    assert acl.rt.free(target) == ACL_ERROR_RT_MEMORY_FREE
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_context(context) == ACL_SUCCESS
    assert acl.rt.set_context(context) != ACL_SUCCESS


def test_memory_and_pointer_helpers(device):
    values = np.arange(12, dtype=np.float32).reshape(3, 4)
    pointer = to_device(values)
    host, ret = acl.rt.malloc_host(values.nbytes)
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(host, values.nbytes, pointer, values.nbytes, DEVICE_TO_HOST) == ACL_SUCCESS
    view = acl.util.ptr_to_numpy(host, (3, 4), NPY_FLOAT32)
    assert view.dtype == np.float32 and view.shape == (3, 4)
    np.testing.assert_array_equal(view, values)
    assert acl.util.ptr_to_bytes(host, values.nbytes) == values.tobytes()
    data = b"\x01\x02\x03\x04"
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(data), 4) == data
    # A host pointer where device memory is needed is an error code, not a silent copy.
    assert acl.rt.memcpy(host, values.nbytes, pointer, values.nbytes, HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert "device" in acl.get_recent_err_msg()
    assert acl.rt.memset(pointer, values.nbytes, 0, values.nbytes) == ACL_SUCCESS
    assert acl.rt.memcpy(host, values.nbytes, pointer, values.nbytes, DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(view, np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError):
        acl.util.numpy_to_ptr(values.T)  # not C-contiguous
    assert acl.rt.free_host(host) == ACL_SUCCESS
    assert acl.rt.free(pointer) == ACL_SUCCESS


def test_unknown_enum_numbers_are_invalid_params(device):
    # Python passes any int where ACL takes an enum; each reaches libascendcl as a C caller's
    # number would (int_enum_calls.c), which refuses it (under UBSan, a C++ cast to the enum
    # would itself be the error).
    pointer, ret = acl.rt.malloc(16, 77)
    assert ret == ACL_ERROR_INVALID_PARAM and pointer == 0
    pointer, ret = acl.rt.malloc(16, 0)
    assert ret == ACL_SUCCESS
    host, ret = acl.rt.malloc_host(16)
    assert ret == ACL_SUCCESS
    for kind in (9, -5, 1 << 20):
        assert acl.rt.memcpy(pointer, 16, host, 16, kind) == ACL_ERROR_INVALID_PARAM
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy_async(pointer, 16, host, 16, 1 << 20, stream) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_mem_info(1000)[-1] == ACL_ERROR_INVALID_PARAM
    assert acl.rt.launch_callback(lambda data: None, None, 1000, stream) == ACL_ERROR_INVALID_PARAM
    assert acl.data_type_size(1000) == 0
    assert acl.data_type_size(0) == 4  # ACL_FLOAT
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.free_host(host) == ACL_SUCCESS
    assert acl.rt.free(pointer) == ACL_SUCCESS


def test_callbacks_run_on_the_subscribed_thread(device):
    stream, _ = acl.rt.create_stream()
    stop = threading.Event()
    seen = []

    def process(args):
        while not stop.is_set():
            acl.rt.process_report(args[0])

    thread_id, ret = acl.util.start_thread(process, [20])
    assert ret == ACL_SUCCESS
    assert acl.rt.subscribe_report(thread_id, stream) == ACL_SUCCESS
    assert acl.rt.launch_callback(lambda data: seen.append((data, threading.get_ident())), "first", 1,
                                  stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS  # a blocking callback has run by now
    assert [data for data, _ in seen] == ["first"]
    assert seen[0][1] != threading.get_ident()
    assert acl.rt.unsubscribe_report(thread_id, stream) == ACL_SUCCESS
    stop.set()
    assert acl.util.stop_thread(thread_id) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def dataset_of(buffers):
    dataset = acl.mdl.create_dataset()
    for pointer, size in buffers:
        returned, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(pointer, size))
        assert (returned, ret) == (dataset, ACL_SUCCESS)
    return dataset


def destroy(dataset):
    for index in range(acl.mdl.get_dataset_num_buffers(dataset)):
        assert acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, index)) == ACL_SUCCESS
    assert acl.mdl.destroy_dataset(dataset) == ACL_SUCCESS


def test_model_description_and_execution(device, models):
    work, weight, ret = acl.mdl.query_size(models["affine"])
    assert ret == ACL_SUCCESS and work >= 64
    model_id, ret = acl.mdl.load_from_file(models["affine"])
    assert ret == ACL_SUCCESS
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == ACL_SUCCESS
    assert (acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)) == (1, 1)
    assert acl.mdl.get_input_size_by_index(desc, 0) == 32
    assert acl.mdl.get_input_dims(desc, 0) == ({"name": "x", "dimCount": 2, "dims": [2, 4]}, ACL_SUCCESS)
    assert acl.mdl.get_output_name_by_index(desc, 0) == "y"
    assert acl.mdl.get_input_data_type(desc, 0) == 0  # ACL_FLOAT
    assert acl.mdl.get_input_index_by_name(desc, "x") == (0, ACL_SUCCESS)
    assert acl.mdl.get_input_index_by_name(desc, "nope")[1] == ACL_ERROR_INVALID_PARAM

    x = np.array([[0, 1, 2, 3], [-4, 5.5, 6, 7]], np.float32)
    inputs = dataset_of([(to_device(x), 32)])
    out, _ = acl.rt.malloc(32, 0)
    outputs = dataset_of([(out, 32)])
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS
    dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
    assert (dims["dims"], ret) == ([2, 4], ACL_SUCCESS)
    result = np.zeros_like(x)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(result), 32, out, 32, DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(result, 2 * x.astype(np.float64) + 1)

    stream, _ = acl.rt.create_stream()
    assert acl.rt.memset(out, 32, 0, 32) == ACL_SUCCESS
    assert acl.mdl.execute_async(model_id, inputs, outputs, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(result), 32, out, 32, DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(result, 2 * x.astype(np.float64) + 1)
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    destroy(inputs)
    destroy(outputs)
    assert acl.mdl.destroy_desc(desc) == ACL_SUCCESS
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
    assert acl.mdl.unload(model_id) == ACL_ERROR_INVALID_MODEL_ID


def test_dynamic_batch(device, models):
    model_id, ret = acl.mdl.load_from_file(models["dyn_affine"])
    assert ret == ACL_SUCCESS
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == ACL_SUCCESS
    assert acl.mdl.get_dynamic_batch(desc) == ({"batchCount": 3, "batch": [1, 2, 4]}, ACL_SUCCESS)
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert (index, ret) == (1, ACL_SUCCESS)
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32)
    size = acl.mdl.get_input_size_by_index(desc, 0)  # the largest profile's: 4 x 4 floats
    assert size == 64
    buffer = np.zeros((4, 4), np.float32)
    buffer[:2] = x
    dynamic, _ = acl.rt.malloc(acl.mdl.get_input_size_by_index(desc, 1), 0)
    inputs = dataset_of([(to_device(buffer), size), (dynamic, acl.mdl.get_input_size_by_index(desc, 1))])
    out, _ = acl.rt.malloc(64, 0)
    outputs = dataset_of([(out, 64)])
    assert acl.mdl.set_dynamic_batch_size(model_id, inputs, index, 3) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.set_dynamic_batch_size(model_id, inputs, index, 2) == ACL_SUCCESS
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS
    dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
    assert dims["dims"] == [2, 4]
    result = np.zeros((2, 4), np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(result), 32, out, 32, DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(result, 2 * x + 1)
    destroy(inputs)
    destroy(outputs)
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def test_dynamic_image_size(device, models):
    model_id, ret = acl.mdl.load_from_file(models["hw_affine"])
    assert ret == ACL_SUCCESS
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == ACL_SUCCESS
    assert acl.mdl.get_dynamic_hw(desc, -1) == ({"hwCount": 2, "hw": [(2, 2), (4, 4)]}, ACL_SUCCESS)
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert ret == ACL_SUCCESS
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    buffer = np.zeros(16, np.float32)
    buffer[:4] = x.ravel()
    dynamic_size = acl.mdl.get_input_size_by_index(desc, index)
    dynamic, _ = acl.rt.malloc(dynamic_size, 0)
    inputs = dataset_of([(to_device(buffer), 64), (dynamic, dynamic_size)])
    out, _ = acl.rt.malloc(64, 0)
    outputs = dataset_of([(out, 64)])
    assert acl.mdl.set_dynamic_hw_size(model_id, inputs, index, 3, 3) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.set_dynamic_hw_size(model_id, inputs, index, 2, 2) == ACL_SUCCESS
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS
    assert acl.mdl.get_cur_output_dims(desc, 0)[0]["dims"] == [1, 1, 2, 2]
    result = np.zeros(4, np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(result), 16, out, 16, DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(result, 2 * x.ravel() + 1)
    destroy(inputs)
    destroy(outputs)
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
