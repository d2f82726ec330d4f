#!/usr/bin/python3
"""A small ResNet-style network and the same network with every Conv -> BatchNormalization -> Relu
replaced by the example's com.example::FusedConvBnRelu (docs/custom_ops.md).

    make_model.py OUT_DIR [--size 56] [--seed 0]

writes OUT_DIR/resnet_small.onnx (the original: a stem, two basic blocks, one with a strided
projection shortcut, global pooling and a classifier, opset 11), OUT_DIR/resnet_small_fused.onnx
(the rewrite) and OUT_DIR/input.npy (a seeded 1x3xSIZExSIZE input). BatchNorm's statistics are
random but positive-variance, like a trained network's; the rewrite folds them into the per-channel
scale = gamma / sqrt(var + eps) and offset = beta - mean * scale and keeps the node and output
names of the Relu it replaces, so op_validate compares the custom kernel at the Relu's output.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

EPSILON = 1e-5


class Builder:
    def __init__(self, rng):
        self.rng = rng
        self.nodes, self.initializers = [], []
        self.count = 0

    def name(self, kind):
        self.count += 1
        return f"{kind}_{self.count}"

    def constant(self, name, array):
        self.initializers.append(numpy_helper.from_array(array.astype(np.float32), name))
        return name

    def conv_bn(self, x, cin, cout, kernel, stride, relu):
        conv = self.name("conv")
        fan_in = cin * kernel * kernel
        w = self.constant(conv + ".weight", self.rng.normal(0, np.sqrt(2.0 / fan_in), (cout, cin, kernel, kernel)))
        pad = kernel // 2
        self.nodes.append(helper.make_node("Conv", [x, w], [conv + ".out"], name=conv, kernel_shape=[kernel, kernel],
                                           strides=[stride, stride], pads=[pad] * 4))
        bn = self.name("bn")
        params = [self.constant(bn + ".gamma", self.rng.uniform(0.5, 1.5, cout)),
                  self.constant(bn + ".beta", self.rng.uniform(-0.2, 0.2, cout)),
                  self.constant(bn + ".mean", self.rng.uniform(-0.2, 0.2, cout)),
                  self.constant(bn + ".var", self.rng.uniform(0.5, 1.5, cout))]
        self.nodes.append(helper.make_node("BatchNormalization", [conv + ".out"] + params, [bn + ".out"], name=bn,
                                           epsilon=EPSILON))
        if not relu:
            return bn + ".out"
        r = self.name("relu")
        self.nodes.append(helper.make_node("Relu", [bn + ".out"], [r + ".out"], name=r))
        return r + ".out"

    def basic_block(self, x, cin, cout, stride):
        y = self.conv_bn(x, cin, cout, 3, stride, relu=True)
        y = self.conv_bn(y, cout, cout, 3, 1, relu=False)
        shortcut = x if stride == 1 and cin == cout else self.conv_bn(x, cin, cout, 1, stride, relu=False)
        add, relu = self.name("add"), self.name("relu")
        self.nodes.append(helper.make_node("Add", [y, shortcut], [add + ".out"], name=add))
        self.nodes.append(helper.make_node("Relu", [add + ".out"], [relu + ".out"], name=relu))
        return relu + ".out"


def build(size, seed):
    b = Builder(np.random.default_rng(seed))
    x = b.conv_bn("input", 3, 16, 3, 1, relu=True)
    x = b.basic_block(x, 16, 16, 1)
    x = b.basic_block(x, 16, 32, 2)
    b.nodes.append(helper.make_node("GlobalAveragePool", [x], ["pooled"], name="pool"))
    b.nodes.append(helper.make_node("Flatten", ["pooled"], ["flat"], name="flatten"))
    fc_w = b.constant("fc.weight", b.rng.normal(0, 0.1, (10, 32)))
    fc_b = b.constant("fc.bias", b.rng.normal(0, 0.1, 10))
    b.nodes.append(helper.make_node("Gemm", ["flat", fc_w, fc_b], ["logits"], name="fc", transB=1))
    graph = helper.make_graph(b.nodes, "resnet_small",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])], b.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], producer_name="make_model.py")
    onnx.checker.check_model(model)
    return model


def fuse(model):
    """Every Conv whose only reader is a BatchNormalization whose only reader is a Relu becomes one
    com.example::FusedConvBnRelu named (and writing) as the Relu."""
    graph = model.graph
    consts = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    readers = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    replaced, fused_nodes, new_consts = set(), {}, []
    for conv in graph.node:
        if conv.op_type != "Conv":
            continue
        after = readers.get(conv.output[0], [])
        if len(after) != 1 or after[0].op_type != "BatchNormalization":
            continue
        bn = after[0]
        after = readers.get(bn.output[0], [])
        if len(after) != 1 or after[0].op_type != "Relu":
            continue
        relu = after[0]
        gamma, beta, mean, var = (consts[n] for n in bn.input[1:5])
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), EPSILON)
        scale = gamma / np.sqrt(var + eps)
        offset = beta - mean * scale
        new_consts += [numpy_helper.from_array(scale.astype(np.float32), relu.name + ".scale"),
                       numpy_helper.from_array(offset.astype(np.float32), relu.name + ".offset")]
        bias = conv.input[2] if len(conv.input) > 2 else ""
        node = helper.make_node("FusedConvBnRelu", [conv.input[0], conv.input[1], bias, relu.name + ".scale",
                                                    relu.name + ".offset"], [relu.output[0]], name=relu.name,
                                domain="com.example")
        node.attribute.extend(a for a in conv.attribute if a.name in ("strides", "pads", "dilations", "group"))
        fused_nodes[conv.name] = node
        replaced |= {conv.name, bn.name, relu.name}
    nodes = [fused_nodes[n.name] if n.name in fused_nodes else n for n in graph.node
             if n.name in fused_nodes or n.name not in replaced]
    used = {name for n in nodes for name in n.input}
    initializers = [t for t in graph.initializer if t.name in used] + new_consts
    fused_graph = helper.make_graph(nodes, graph.name + "_fused", list(graph.input), list(graph.output), initializers)
    fused = helper.make_model(fused_graph, opset_imports=[helper.make_opsetid("", 11),
                                                         helper.make_opsetid("com.example", 1)],
                              producer_name="make_model.py")
    return fused, len(fused_nodes)


def save(model, path):
    onnx.save(model, path + ".tmp")
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--size", type=int, default=56)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    model = build(args.size, args.seed)
    fused, count = fuse(model)
    save(model, os.path.join(args.out_dir, "resnet_small.onnx"))
    save(fused, os.path.join(args.out_dir, "resnet_small_fused.onnx"))
    sample = np.random.default_rng(args.seed + 1).standard_normal((1, 3, args.size, args.size)).astype(np.float32)
    np.save(os.path.join(args.out_dir, "input.npy"), sample)
    print(f"{count} Conv+BatchNormalization+Relu chains replaced by com.example::FusedConvBnRelu")


if __name__ == "__main__":
    main()
