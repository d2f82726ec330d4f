"""The inputs of the robustness catalogue. Each builder writes into a case's directory; the
catalogue names the builder and its arguments. `context` holds the build's bin/ and plugin
directories, the source tree and a cache directory shared by the cases of one run.
"""
import glob
import os
import shutil
import subprocess
import sys
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    onnx.save(model, path)


def _conv_weights(name, out_channels, in_channels, kernel):
    rng = np.random.default_rng(0)
    weights = numpy_helper.from_array(
        rng.uniform(-0.5, 0.5, (out_channels, in_channels, kernel, kernel)).astype(np.float32))
    weights.name = name
    return weights


def small_model(cwd, context, op="Relu", attributes=None, opset=11, input_shape=(1, 3, 8, 8), name="small",
                file="model.onnx"):
    """One node `op` on an input "x" (a Conv gets 4 3x3 filters), output "y" of unknown shape."""
    inputs, initializers = ["x"], []
    if op in ("Conv", "ConvTranspose"):
        initializers.append(_conv_weights("w", 4, input_shape[1], 3))
        inputs.append("w")
    node = helper.make_node(op, inputs, ["y"], name="node1", **(attributes or {}))
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(input_shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                             [f"d{i}" for i in range(len(input_shape))])],
                              initializers)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), os.path.join(cwd, file))


def tiny_cnn(cwd, context, file="model.onnx", graph_name="tiny", batch=1):
    """conv1 -> relu1 -> gap -> flat: input "input" [batch,3,16,16], output "output" [batch,8]."""
    nodes = [
        helper.make_node("Conv", ["input", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("GlobalAveragePool", ["r1"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["output"], name="flat"),
    ]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [batch, 3, 16, 16])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [batch, 8])],
                              [_conv_weights("w1", 8, 3, 3)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    path = os.path.join(cwd, file)
    save(model, path)
    if graph_name != "tiny":  # onnx's Python API refuses names that are not UTF-8; the file format does not
        data = open(path, "rb").read()
        name = graph_name.encode("latin-1")
        # GraphProto.name is field 2: "\x12\x04tiny" occurs once in the serialised model. A name of
        # the same length keeps every enclosing length prefix right.
        assert data.count(b"\x12\x04tiny") == 1 and len(name) == 4
        open(path, "wb").write(data.replace(b"\x12\x04tiny", b"\x12\x04" + name))


def wide_model(cwd, context, file="model.onnx"):
    """A MatMul with a 2048x2048 weight (16 MiB as float32, 8 MiB in an fp16 .om): an .om that
    takes long enough to write for an interrupt to land during the write."""
    weight = numpy_helper.from_array(np.random.default_rng(1).standard_normal((2048, 2048)).astype(np.float32))
    weight.name = "w"
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul")], "wide",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2048])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2048])], [weight])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(cwd, file))


def growing_model(cwd, context, file="model.onnx"):
    """x [1,4] -> Relu "small" [1,4] -> Tile "big" [1,4096]: the first output is tiny and the second
    is not, so a file size limit between the two fails a dump after it has begun."""
    repeats = numpy_helper.from_array(np.array([1, 1024], dtype=np.int64), "repeats")
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="small"),
             helper.make_node("Tile", ["r", "repeats"], ["y"], name="big")]
    graph = helper.make_graph(nodes, "growing", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4096])], [repeats])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(cwd, file))


def squeezenet(cwd, context, file="model.onnx", stride=None, op="Conv"):
    """torchvision's SqueezeNet 1.0 as the seed exports it (tools/export_model.py, cached per run);
    `stride` replaces the second stride of the first `op` node."""
    cached = os.path.join(context["cache"], "squeezenet1_0.onnx")
    if not os.path.exists(cached):
        os.makedirs(context["cache"], exist_ok=True)
        subprocess.run([sys.executable, os.path.join(context["source"], "tools", "export_model.py"), "squeezenet1_0",
                        cached, "--static"], check=True, stdout=subprocess.DEVNULL)
    model = onnx.load(cached)
    if stride is not None:
        node = next(node for node in model.graph.node if node.op_type == op)
        attribute = next(a for a in node.attribute if a.name == "strides")
        attribute.ints[1] = stride
    save(model, os.path.join(cwd, file))


def empty_graph(cwd, context, file="model.onnx", passthrough=False):
    """A graph without nodes: nothing at all, or (passthrough) one input that is also the output."""
    value = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([], "empty", [value] if passthrough else [], [value] if passthrough else [])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(cwd, file))


def constant_graph(cwd, context, file="model.onnx"):
    """A graph without inputs: one Constant node gives the output."""
    node = helper.make_node("Constant", [], ["y"], name="const",
                            value=numpy_helper.from_array(np.arange(4, dtype=np.float32).reshape(1, 4)))
    graph = helper.make_graph([node], "constant", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(cwd, file))


def run_tool(cwd, context, command):
    """Runs a command in the case directory to prepare an input (an .om from atc, a profile)."""
    subprocess.run(["/bin/sh", "-c", command.format(**context)], cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def truncated_plugin(cwd, context, plugin="validator", fraction=0.5, directory="plugins"):
    """A copy of a built plugin cut to `fraction` of its size, alone in `directory`."""
    os.makedirs(os.path.join(cwd, directory), exist_ok=True)
    data = open(os.path.join(context["plugins"], plugin + ".so"), "rb").read()
    open(os.path.join(cwd, directory, plugin + ".so"), "wb").write(data[:int(len(data) * fraction)])


def npy(cwd, context, file, shape, dtype="float32"):
    np.save(os.path.join(cwd, file), np.zeros(shape, dtype=dtype))


def raw_file(cwd, context, file, size):
    open(os.path.join(cwd, file), "wb").write(bytes(size))


def text_file(cwd, context, file, text):
    with open(os.path.join(cwd, file), "w") as f:
        f.write(text)


def directory(cwd, context, path):
    os.makedirs(os.path.join(cwd, path))


def symlink(cwd, context, link, target):
    os.symlink(target, os.path.join(cwd, link))


def hard_link(cwd, context, link, target):
    os.link(os.path.join(cwd, target), os.path.join(cwd, link))


def profile(cwd, context, column=None, row=1, value=None, into="PROF"):
    """The profiler tests' ResNet profile (tests/profiler/data) copied to `into`, with the field
    `column` of data row `row` set to `value` when given."""
    source = glob.glob(os.path.join(context["source"], "tests", "profiler", "data", "resnet_block_dim", "PROF_*"))[0]
    target = os.path.join(cwd, into, os.path.basename(source))
    shutil.copytree(source, target)
    if column is None:
        return
    csv = glob.glob(os.path.join(target, "mindstudio_profiler_output", "op_summary_*.csv"))[0]
    import csv as csv_module
    with open(csv, newline="") as f:
        rows = list(csv_module.reader(f))
    rows[row][rows[0].index(column)] = value
    with open(csv, "w", newline="") as f:
        csv_module.writer(f).writerows(rows)


def om_without_placement(cwd, context, om="model.om", value=None):
    """Removes the placement of `value` (default: the first node's output) from every profile of
    `om`, then rewrites the header so the checksum matches: a well-formed file whose payload
    contradicts itself."""
    proto_dir = os.path.join(context["source"], "plugins", "backend_npusim", "om")
    out_dir = os.path.join(context["cache"], "om_proto")
    os.makedirs(out_dir, exist_ok=True)
    if not os.path.exists(os.path.join(out_dir, "om_pb2.py")):
        subprocess.run(["protoc", "-I", proto_dir, "--python_out", out_dir, os.path.join(proto_dir, "om.proto")],
                       check=True)
    sys.path.insert(0, out_dir)
    import om_pb2
    path = os.path.join(cwd, om)
    data = open(path, "rb").read()
    model = om_pb2.CompiledModel()
    model.ParseFromString(data[24:])
    value = model.graph.nodes[0].outputs[0] if value is None else value.encode()
    for compiled in model.profiles:
        kept = [placement for placement in compiled.values if placement.value != value]
        del compiled.values[:]
        compiled.values.extend(kept)
    payload = model.SerializeToString()
    header = bytearray(data[:24])
    header[12:16] = zlib.crc32(payload).to_bytes(4, "little")
    header[16:24] = len(payload).to_bytes(8, "little")
    open(path, "wb").write(bytes(header) + payload)
