"""Writes the ACL runtime tests' ONNX models into argv[1]. Every output is exact in fp16:
  affine.onnx      x float32[2,4]    -> y = x * 2 + 1
  dyn_affine.onnx  x float32[N,4]    -> y = x * 2 + 1 (compiled with dynamic batch sizes)
  hw_affine.onnx   x float32[1,1,H,W] -> y = x * 2 + 1 (compiled with dynamic image sizes)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
F = TensorProto.FLOAT


def save(name, shape):
    nodes = [helper.make_node("Mul", ["x", "two"], ["twice"], name="mul"),
             helper.make_node("Add", ["twice", "one"], ["y"], name="add")]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", F, shape)],
                              [helper.make_tensor_value_info("y", F, shape)],
                              initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two"),
                                           numpy_helper.from_array(np.array(1.0, np.float32), "one")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))


save("affine", [2, 4])
save("dyn_affine", ["N", 4])
save("hw_affine", [1, 1, "H", "W"])
