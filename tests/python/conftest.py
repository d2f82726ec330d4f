"""Shared by the Python tests (run by ctest with PYTHONPATH=<build>/python and ASC_BIN_DIR=<build>/bin):
small test models converted once per session with the project's atc."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import ascend_tools


def affine_onnx(path, shape):
    """y = 2x + 1 (exact in fp16 for small integers and halves), input x float32 `shape`."""
    nodes = [helper.make_node("Mul", ["x", "two"], ["twice"], name="mul"),
             helper.make_node("Add", ["twice", "one"], ["y"], name="add")]
    graph = helper.make_graph(nodes, "affine", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                              initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two"),
                                           numpy_helper.from_array(np.array(1.0, np.float32), "one")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def small_cnn_onnx(path):
    """Conv, Relu, GlobalAveragePool, Flatten, Gemm on a 1x3x32x32 image (named nodes)."""
    rng = np.random.default_rng(5)
    weights = {"w": rng.standard_normal((8, 3, 3, 3)) * 0.3, "b": rng.standard_normal(8) * 0.1,
               "fc_w": rng.standard_normal((4, 8)) * 0.5, "fc_b": rng.standard_normal(4) * 0.1}
    nodes = [helper.make_node("Conv", ["image", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("GlobalAveragePool", ["r"], ["p"], name="pool"),
             helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
             helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["scores"], name="fc", transB=1)]
    graph = helper.make_graph(nodes, "small_cnn",
                              [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 4])],
                              initializer=[numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


@pytest.fixture(scope="session")
def work_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("python_tests"))


@pytest.fixture(scope="session")
def models(work_dir):
    """Paths of the converted test models: affine (float32[2,4]), dyn_affine (batch 1, 2 or 4 of
    [N,4]), hw_affine (image sizes 2x2 and 4x4 of [1,1,H,W]), small_cnn."""
    affine_onnx(os.path.join(work_dir, "affine.onnx"), [2, 4])
    affine_onnx(os.path.join(work_dir, "dyn_affine.onnx"), ["N", 4])
    affine_onnx(os.path.join(work_dir, "hw_affine.onnx"), [1, 1, "H", "W"])
    small_cnn_onnx(os.path.join(work_dir, "small_cnn.onnx"))
    common = {"framework": 5, "soc_version": "Ascend310", "log": "error"}
    return {
        "affine": ascend_tools.atc(model=os.path.join(work_dir, "affine.onnx"), output=os.path.join(work_dir, "affine"),
                                   **common),
        "dyn_affine": ascend_tools.atc(model=os.path.join(work_dir, "dyn_affine.onnx"),
                                       output=os.path.join(work_dir, "dyn_affine"), input_shape="x:-1,4",
                                       dynamic_batch_size="1,2,4", **common),
        "hw_affine": ascend_tools.atc(model=os.path.join(work_dir, "hw_affine.onnx"),
                                      output=os.path.join(work_dir, "hw_affine"), input_shape="x:1,1,-1,-1",
                                      dynamic_image_size="2,2;4,4", **common),
        "small_cnn": ascend_tools.atc(model=os.path.join(work_dir, "small_cnn.onnx"),
                                      output=os.path.join(work_dir, "small_cnn"), **common),
    }
