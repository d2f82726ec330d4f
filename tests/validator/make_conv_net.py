"""Writes the whole-network test's model into argv[1]/model.onnx:
x[1,3,16,16] -> conv1 (8 filters 3x3, pad 1) -> relu1 -> conv2 (16 filters 3x3, pad 1) -> relu2
-> gap (GlobalAveragePool) -> y[1,16,1,1]. Node names are the ones the test plants faults in.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.RandomState(11)
w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32)
b2 = (rng.standard_normal(16) * 0.1).astype(np.float32)
conv = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])
graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", **conv),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", **conv),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["y"], name="gap"),
    ],
    "conv_net",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 1, 1])],
    initializer=[numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
                 numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(sys.argv[1], "model.onnx"))
