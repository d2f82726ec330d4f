"""Writes the end-to-end test's model, inputs and numpy-computed expected outputs into argv[1].

model.onnx:  y = MatMul(Relu(Add(a, b)), w), with a, b: float32[N, 3], w: an initializer [3, 4];
             the Relu output, named "relu/out", is a graph output too.
a.npy, b.npy: inputs of shape [2, 3]; y_expected.npy, relu_expected.npy: computed in float64.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out_dir = sys.argv[1]
rng = np.random.RandomState(0)
w = rng.standard_normal((3, 4)).astype(np.float32)

graph = helper.make_graph(
    [
        helper.make_node("Add", ["a", "b"], ["sum"], name="add"),
        helper.make_node("Relu", ["sum"], ["relu/out"], name="relu"),
        helper.make_node("MatMul", ["relu/out", "w"], ["y"], name="matmul"),
    ],
    "add_relu_matmul",
    [
        helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3]),
        helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N", 3]),
    ],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4]),
        helper.make_tensor_value_info("relu/out", TensorProto.FLOAT, ["N", 3]),
    ],
    initializer=[numpy_helper.from_array(w, "w")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out_dir, "model.onnx"))

a = rng.standard_normal((2, 3)).astype(np.float32)
b = rng.standard_normal((2, 3)).astype(np.float32)
np.save(os.path.join(out_dir, "a.npy"), a)
np.save(os.path.join(out_dir, "b.npy"), b)
relu = np.maximum(a.astype(np.float64) + b.astype(np.float64), 0.0)
np.save(os.path.join(out_dir, "relu_expected.npy"), relu.astype(np.float32))
np.save(os.path.join(out_dir, "y_expected.npy"), (relu @ w.astype(np.float64)).astype(np.float32))
