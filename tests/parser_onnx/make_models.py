"""Writes the ONNX models test_parser_onnx parses into the directory given as argv[1].

Values are simple formulas (w[i] = 0.01 * i - 0.5, ...) that the C++ tests recompute on their
own, so the expectations never come from the parser under test.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]


def save(model, *parts):
    path = os.path.join(OUT, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    onnx.save(model, path)
    return path


def model(nodes, inputs, outputs, initializers=(), opset=13, extra_opsets=(), **kwargs):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    return helper.make_model(graph, opset_imports=opsets, **kwargs)


def conv_model():
    weights = (np.arange(108) * 0.01 - 0.5).astype(np.float32).reshape(4, 3, 3, 3)
    nodes = [
        helper.make_node("Conv", ["X", "W", "B"], ["c"], name="conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         strides=[2, 2], auto_pad="NOTSET", group=1),
        helper.make_node("LeakyRelu", ["c"], ["r"], alpha=0.25),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Constant", [], ["s"], name="scale_const",
                         value=helper.make_tensor("scale", TensorProto.FLOAT, [], [0.5])),
        helper.make_node("Mul", ["p", "s"], ["m"], name="mul"),
        helper.make_node("Reshape", ["m", "shape"], ["Y"], name="flatten"),
    ]
    m = model(nodes,
              [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 3, 8, 8]),
               helper.make_tensor_value_info("W", TensorProto.FLOAT, [4, 3, 3, 3])],
              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 16])],
              [numpy_helper.from_array(weights, "W"),
               numpy_helper.from_array(np.array([0.1, 0.2, 0.3, 0.4], np.float32), "B"),
               numpy_helper.from_array(np.array([0, -1], np.int64), "shape")],
              producer_name="asc-tests", producer_version="1.0")
    helper.set_model_props(m, {"author": "h2"})
    save(m, "conv.onnx")


DTYPE_VALUES = {
    "float32": (np.float32, TensorProto.FLOAT, [1.5, -2.25]),
    "float16": (np.float16, TensorProto.FLOAT16, [1.5, -2.25]),
    "float64": (np.float64, TensorProto.DOUBLE, [1.5, -2.25]),
    "int8": (np.int8, TensorProto.INT8, [-128, 127]),
    "uint8": (np.uint8, TensorProto.UINT8, [0, 255]),
    "int16": (np.int16, TensorProto.INT16, [-32768, 32767]),
    "uint16": (np.uint16, TensorProto.UINT16, [0, 65535]),
    "int32": (np.int32, TensorProto.INT32, [-2**31, 2**31 - 1]),
    "uint32": (np.uint32, TensorProto.UINT32, [0, 2**32 - 1]),
    "int64": (np.int64, TensorProto.INT64, [-2**63, 2**63 - 1]),
    "uint64": (np.uint64, TensorProto.UINT64, [0, 2**64 - 1]),
    "bool": (np.bool_, TensorProto.BOOL, [True, False]),
}


def dtypes_model():
    initializers = []
    for name, (np_type, onnx_type, values) in DTYPE_VALUES.items():
        initializers.append(numpy_helper.from_array(np.array(values, np_type), "raw_" + name))
        initializers.append(helper.make_tensor("typed_" + name, onnx_type, [2], values))
    # bfloat16 1.5 = 0x3FC0, -2.25 = 0xC010; numpy has no bfloat16, so raw bytes by hand.
    initializers.append(helper.make_tensor("raw_bfloat16", TensorProto.BFLOAT16, [2], b"\xc0\x3f\x10\xc0", raw=True))
    initializers.append(helper.make_tensor("typed_bfloat16", TensorProto.BFLOAT16, [2], [1.5, -2.25]))
    # Any non-zero byte is true.
    initializers.append(helper.make_tensor("raw_bool_byte2", TensorProto.BOOL, [3], b"\x02\x00\x01", raw=True))
    initializers.append(numpy_helper.from_array(np.zeros((0, 3), np.float32), "empty"))
    initializers.append(numpy_helper.from_array(np.array(7.0, np.float32), "scalar"))
    save(model([helper.make_node("Identity", ["X"], ["Y"], name="id")],
               [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])], initializers), "dtypes.onnx")
    save(model([helper.make_node("Identity", ["X"], ["Y"], name="id")],
               [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])],
               [helper.make_tensor("words", TensorProto.STRING, [2], [b"a", b"b"])]), "string_initializer.onnx")


def neg_graph(name):
    return helper.make_graph([helper.make_node("Neg", ["a"], ["b"])], name,
                             [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1])],
                             [helper.make_tensor_value_info("b", TensorProto.FLOAT, [1])])


def attributes_model():
    everything = helper.make_node(
        "Everything", ["X"], ["Z"], name="everything", domain="test.custom",
        i=7, f=0.5, s="hello", t=helper.make_tensor("t", TensorProto.INT32, [3], [1, 2, 3]), g=neg_graph("g"),
        ints=[1, 2, 3], floats=[0.25, 0.5], strings=["a", "b"],
        tensors=[helper.make_tensor("t0", TensorProto.FLOAT, [1], [1.0]),
                 helper.make_tensor("t1", TensorProto.INT64, [2], [4, 5])],
        graphs=[neg_graph("g0"), neg_graph("g1")])
    one = numpy_helper.from_array(np.array([1.0, 1.0], np.float32), "one")
    then_branch = helper.make_graph([helper.make_node("Add", ["X", "one"], ["then_out"])], "then_body", [],
                                    [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [2])], [one])
    else_branch = helper.make_graph([helper.make_node("Sub", ["X", "one"], ["else_out"])], "else_body", [],
                                    [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [2])], [one])
    branch = helper.make_node("If", ["C"], ["Y"], name="if1", then_branch=then_branch, else_branch=else_branch)
    save(model([everything, branch],
               [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2]),
                helper.make_tensor_value_info("C", TensorProto.BOOL, [])],
               [helper.make_tensor_value_info("Z", TensorProto.FLOAT, ["z"]),
                helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])],
               extra_opsets=[("test.custom", 1)]), "attributes.onnx")

    sparse = helper.make_sparse_tensor(helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]),
                                       helper.make_tensor("i", TensorProto.INT64, [1], [0]), [4])
    save(model([helper.make_node("Holder", ["X"], ["Z"], name="holder", domain="test.custom", sparse=sparse)],
               [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2])],
               [helper.make_tensor_value_info("Z", TensorProto.FLOAT, ["z"])],
               extra_opsets=[("test.custom", 1)]), "sparse_attribute.onnx")


def names_model():
    relu = lambda src, dst, name: helper.make_node("Relu", [src], [dst], name=name)  # noqa: E731
    save(model([relu("x", "a", "Relu_1"), relu("a", "b", ""), relu("b", "c", "dup"), relu("c", "y", "dup")],
               [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
               [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]), "names.onnx")


def opset_models():
    bn = [numpy_helper.from_array(np.ones(2, np.float32), n) for n in ("bn_scale", "bn_bias", "bn_mean", "bn_var")]
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    nodes = [
        helper.make_node("Upsample", ["X", "scales"], ["u"], name="up", mode="nearest"),
        helper.make_node("BatchNormalization", ["u", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["n"], name="bn"),
        helper.make_node("Clip", ["n"], ["Y"], name="clip", min=0.0, max=6.0),
    ]
    io = ([helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2, 4, 4])],
          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 2, 8, 8])])
    save(model(nodes, *io, [scales] + bn, opset=9), "opset9.onnx")
    custom = [helper.make_node("Relu", ["X"], ["r"], name="relu"),
              helper.make_node("Mystery", ["r"], ["Y"], name="mystery", domain="test.custom")]
    save(model(custom, *io, opset=9, extra_opsets=[("test.custom", 1)]), "opset9_custom_domain.onnx")
    relu = [helper.make_node("Relu", ["X"], ["Y"], name="relu")]
    save(model(relu, [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])], opset=18), "opset18.onnx")


def invalid_models():
    io = ([helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2, 4, 4])],
          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 2, 4, 4])])
    save(model([helper.make_node("Relu", ["X"], ["Y"], name="bad_relu", bogus=1)], *io), "checker_fails.onnx")
    save(model([helper.make_node("Add", ["X", "k"], ["Y"], name="add1")], *io,
               [numpy_helper.from_array(np.ones(3, np.float32), "k")]), "shape_inference_fails.onnx")
    # Passes onnx 1.12's checker, yet crashed its version converter: Y is produced by nothing.
    save(model([helper.make_node("Relu", ["X"], ["r"], name="relu")], *io, opset=9), "dangling_output.onnx")
    # Crashed onnx 1.12's shape inference (SIGFPE dividing by the stride, SIGSEGV on the dimension):
    # refused before it runs.
    weights = numpy_helper.from_array(np.ones((2, 2, 3, 3), np.float32), "w")
    save(model([helper.make_node("Conv", ["X", "w"], ["Y"], name="conv0", strides=[1, 0])], *io, [weights]),
         "stride_zero.onnx")
    # Found by tests/fuzz/fuzz_onnx: a 3-D weight on a 2-D input read an empty vector (SIGSEGV).
    save(model([helper.make_node("Conv", ["x2", "w3"], ["Y"], name="conv_rank")],
               [helper.make_tensor_value_info("x2", TensorProto.FLOAT, [1, 16])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 8])],
               [numpy_helper.from_array(np.ones((8, 3, 3), np.float32), "w3")], opset=11), "conv_weight_rank.onnx")
    save(model([helper.make_node("Conv", ["x4", "w5"], ["Y"], name="conv_dilated", dilations=[1, 2], strides=[2, 1])],
               [helper.make_tensor_value_info("x4", TensorProto.FLOAT, [1, 3, 8, 8])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 8, "h", "w"])],
               [numpy_helper.from_array(np.ones((8, 3, 8, 3, 5), np.float32), "w5")], opset=11), "conv_weight_rank_dilations.onnx")
    save(model([helper.make_node("Conv", ["X", "w1"], ["Y"], name="conv_flat")], *io,
               [numpy_helper.from_array(np.ones(4, np.float32), "w1")]), "conv_weight_1d.onnx")
    save(model([helper.make_node("Relu", ["X"], ["Y"], name="relu")],
               [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, -2**63])],
               [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, "n"])], opset=15), "dim_min_int64.onnx")
    with open(os.path.join(OUT, "tensor_not_model.onnx"), "wb") as f:
        f.write(numpy_helper.from_array(np.arange(6, dtype=np.float32), "t").SerializeToString())


def external_model(case, location, offset=None, length=None, data=None, data_file=None):
    """A model Y = X + W whose W [2,2] float lives in external data at `location`."""
    directory = os.path.join(OUT, "ext", case)
    os.makedirs(directory, exist_ok=True)
    if data is not None:
        target = os.path.join(directory, data_file or location)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    weight = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[2, 2], data_location=TensorProto.EXTERNAL)
    for key, value in (("location", location), ("offset", offset), ("length", length)):
        if value is not None:
            weight.external_data.add(key=key, value=str(value))
    m = model([helper.make_node("Add", ["X", "W"], ["Y"], name="add")],
              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 2])],
              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 2])], [weight])
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    return directory


def external_data_models():
    # The good case through ONNX's own writer: every tensor in one file, at increasing offsets.
    weights = (np.arange(6) * 0.25 - 1).astype(np.float32).reshape(2, 3)
    m = model([helper.make_node("MatMul", ["X", "W1"], ["m"], name="matmul"),
               helper.make_node("Reshape", ["m", "shape"], ["Y"], name="reshape")],
              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2])],
              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3])],
              [numpy_helper.from_array(weights, "W1"), numpy_helper.from_array(np.array([3], np.int64), "shape")])
    os.makedirs(os.path.join(OUT, "ext", "ok"), exist_ok=True)
    onnx.save_model(m, os.path.join(OUT, "ext", "ok", "model.onnx"), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="weights.bin", size_threshold=0)

    floats = np.array([1, 2, 3, 4], np.float32).tobytes()
    external_model("subdir", "data/w.bin", data=floats)
    inner = external_model("inner_symlink", "link.bin", data=floats, data_file="data/w.bin")
    os.symlink("data/w.bin", os.path.join(inner, "link.bin"))
    with open(os.path.join(OUT, "ext", "outside.bin"), "wb") as f:
        f.write(floats)
    os.makedirs(os.path.join(OUT, "ext", "outside_dir"), exist_ok=True)
    with open(os.path.join(OUT, "ext", "outside_dir", "w.bin"), "wb") as f:
        f.write(floats)
    external_model("dotdot", "../outside.bin")
    external_model("dotdot_inside", "data/../w.bin", data=floats, data_file="w.bin")
    external_model("absolute", "/etc/passwd")
    escaping = external_model("symlink_file", "link.bin")
    os.symlink("../outside.bin", os.path.join(escaping, "link.bin"))
    escaping_dir = external_model("symlink_dir", "d/w.bin")
    os.symlink("../outside_dir", os.path.join(escaping_dir, "d"))
    external_model("missing", "nope.bin")
    external_model("short", "w.bin", length=16, data=floats[:8])
    external_model("offset_beyond", "w.bin", offset=100, length=16, data=floats)
    external_model("length_mismatch", "w.bin", length=8, data=floats)
    external_model("bad_offset", "w.bin", offset="ten", data=floats)
    fifo = external_model("fifo", "pipe")
    os.mkfifo(os.path.join(fifo, "pipe"))


conv_model()
dtypes_model()
attributes_model()
names_model()
opset_models()
invalid_models()
external_data_models()
