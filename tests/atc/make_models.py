"""Writes the models tests/atc converts into the directory given as argv[1] (skipping files that
already exist, so a rerun costs nothing):

- tiny.onnx: a small CNN with named nodes, input "input" [N,3,16,16] -> output "output" [N,4]:
  conv1 -> relu1 -> conv2 -> sig -> gap -> flat -> fc (for the flag tests);
- custom_op.onnx: one node "custom1" of com.example.MyCustomOp (tests/atc/custom_op_plugin.cpp);
- custom_throwing.onnx: one node "throw1" of com.example.ThrowingInferOp, whose inference throws a
  std::runtime_error (not a coded error);
- custom_wrong_shape.onnx, custom_float64.onnx: "wrong1" (com.example.WrongShapeOp) or "wide1"
  (com.example.Float64Op), whose kernels break what their inference declares, then "relu_after";
- resnet50.onnx, mobilenet_v2.onnx, yolov5.onnx: exported by tools/export_model.py as the seed's
  step 1 does (dynamic batch; random weights), yolov5.onnx being the YOLOv5-style detector of
  tools/small_models.py with input "images".
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tiny():
    path = os.path.join(OUT, "tiny.onnx")
    if os.path.exists(path):
        return
    rng = np.random.default_rng(0)
    w = lambda *shape: numpy_helper.from_array(rng.uniform(-0.5, 0.5, shape).astype(np.float32))
    inits = [w(8, 3, 3, 3), w(8), w(8, 8, 3, 3), w(8), w(4, 8), w(4)]
    for init, name in zip(inits, ["w1", "b1", "w2", "b2", "wf", "bf"]):
        init.name = name
    nodes = [
        helper.make_node("Conv", ["input", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["c2"], ["s"], name="sig"),
        helper.make_node("GlobalAveragePool", ["s"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["output"], name="fc", transB=1),
    ]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 3, 16, 16])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 4])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    onnx.checker.check_model(model)
    onnx.save(model, path + ".tmp")
    os.replace(path + ".tmp", path)


def custom_op(op_type="MyCustomOp", name="custom_op.onnx", node_name="custom1", then_relu=False):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        return
    nodes = [helper.make_node(op_type, ["x"], ["h" if then_relu else "y"], name=node_name, domain="com.example")]
    if then_relu:
        nodes.append(helper.make_node("Relu", ["h"], ["y"], name="relu_after"))
    graph = helper.make_graph(nodes, "custom", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)])
    onnx.save(model, path + ".tmp")
    os.replace(path + ".tmp", path)


def exported(kind, name):
    path = os.path.join(OUT, name)
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), kind, path], check=True,
                       stdout=subprocess.DEVNULL)


os.makedirs(OUT, exist_ok=True)
tiny()
custom_op()
custom_op("ThrowingInferOp", "custom_throwing.onnx", "throw1")
custom_op("WrongShapeOp", "custom_wrong_shape.onnx", "wrong1", then_relu=True)
custom_op("Float64Op", "custom_float64.onnx", "wide1", then_relu=True)
exported("resnet50", "resnet50.onnx")
exported("mobilenet_v2", "mobilenet_v2.onnx")
exported("yolo_style", "yolov5.onnx")
