"""Writes the ais_bench tests' ONNX models into argv[1]:
  add_mul.onnx   a, b float32[2,3] -> y = a + b (node "add"), z = a * b (node "mul")
  conv_relu.onnx x float32[1,2,4,4] -> conv (3 filters 3x3, pad 1, weights 0.5, bias 0.25) -> relu -> y
                 (fusion makes conv+relu one task whose provenance lists both)
  cast_add.onnx  x uint8[2,3] -> Cast to float32 -> + 1 -> y
  dyn_relu.onnx  x float32[N,4] -> relu -> y (compiled with dynamic batch sizes)
  batch2.onnx    x float32[2,3] -> y = x + 10 (two single-row input files make one batch)
Weights are constants chosen so the expected outputs are exact in fp16.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def save(name, nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))


F = TensorProto.FLOAT
save("add_mul",
     [helper.make_node("Add", ["a", "b"], ["y"], name="add"), helper.make_node("Mul", ["a", "b"], ["z"], name="mul")],
     [helper.make_tensor_value_info("a", F, [2, 3]), helper.make_tensor_value_info("b", F, [2, 3])],
     [helper.make_tensor_value_info("y", F, [2, 3]), helper.make_tensor_value_info("z", F, [2, 3])])

save("conv_relu",
     [helper.make_node("Conv", ["x", "w", "bias"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
      helper.make_node("Relu", ["c"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", F, [1, 2, 4, 4])],
     [helper.make_tensor_value_info("y", F, [1, 3, 4, 4])],
     [numpy_helper.from_array(np.full((3, 2, 3, 3), 0.5, np.float32), "w"),
      numpy_helper.from_array(np.full((3,), 0.25, np.float32), "bias")])

save("cast_add",
     [helper.make_node("Cast", ["x"], ["xf"], name="cast", to=F), helper.make_node("Add", ["xf", "one"], ["y"], name="add")],
     [helper.make_tensor_value_info("x", TensorProto.UINT8, [2, 3])],
     [helper.make_tensor_value_info("y", F, [2, 3])],
     [numpy_helper.from_array(np.array(1.0, np.float32), "one")])

save("dyn_relu",
     [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", F, ["N", 4])],
     [helper.make_tensor_value_info("y", F, ["N", 4])])

save("batch2",
     [helper.make_node("Add", ["x", "ten"], ["y"], name="add")],
     [helper.make_tensor_value_info("x", F, [2, 3])],
     [helper.make_tensor_value_info("y", F, [2, 3])],
     [numpy_helper.from_array(np.array(10.0, np.float32), "ten")])
