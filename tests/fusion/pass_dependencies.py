"""Which fusion passes depend on which, as measured on the real models (ResNet-50 with
BatchNormalization kept, MobileNetV2, the BERT encoder, the YOLO-style model; docs/fusion.md).

DEPENDENCIES[off][other] = (direction, why): with pass `off` disabled, pass `other` may report
different match/effect counts, only in that direction: "+" it finds more (it takes over what
`off` would have handled), "-" it finds fewer (it fuses what `off` produces). Every pair not
listed must keep its counts exactly. Passes not listed as keys change no other pass's counts.
"""

DEPENDENCIES = {
    "IdentityElimination": {
        "ConstantFolding": ("+", "torch.onnx puts Identity nodes over initializers (shared weights, "
                                 "BatchNormalization statistics); left in place, they are constant and fold"),
    },
    "ConstantFolding": {
        "CommonSubexpressionElimination": ("+", "the Shape/Gather/Unsqueeze/Concat chains torch.onnx emits per "
                                                "layer stay, and their identical copies are merged instead"),
        "ShapeInference": ("+", "the values folding would have made constant are typed by inference instead"),
        "DeadNodeElimination": ("+", "the unfolded chains that computed the attention block's Reshape targets "
                                     "and scale die once AttentionFusion replaces their consumers"),
        "ElementwiseChainFusion": ("-", "a chain needs its shape known; a Slice whose bounds come from Constant "
                                        "nodes has none until they are folded"),
    },
    "ConvBatchNormFusion": {
        "ConvResidualAddFusion": ("-", "the residual Add follows the BatchNormalization, not the Conv"),
        "ConvActivationFusion": ("-", "the activation follows the BatchNormalization, not the Conv"),
        "ElementwiseChainFusion": ("+", "the Add and activation after each BatchNormalization form chains"),
    },
    "ConvResidualAddFusion": {
        "ConvActivationFusion": ("-", "the Relu after a residual Add follows the Add, not a Conv"),
        "ElementwiseChainFusion": ("+", "the residual Add and its Relu form a chain"),
    },
    "ConvActivationFusion": {
        "ElementwiseChainFusion": ("+", "SiLU's Sigmoid and Mul after each Conv form a chain"),
    },
    "MatMulBiasAddFusion": {
        "MatMulActivationFusion": ("-", "the GELU follows the bias Add, not the MatMul"),
        "ElementwiseChainFusion": ("+", "the bias Adds and the activations after them form chains"),
    },
    "GeluFusion": {
        "MatMulActivationFusion": ("-", "there is no GELU node left to absorb, only its elementwise parts"),
        "ElementwiseChainFusion": ("+", "the GELU's Div/Erf/Add/Mul/Mul form a chain"),
    },
    "LayerNormFusion": {
        "ElementwiseChainFusion": ("+", "the pattern's Sub/Pow/Add/Sqrt/Div/Mul/Add runs form chains"),
    },
    "AttentionFusion": {
        "MatMulActivationFusion": ("+", "the scores' division by sqrt(d) after Q·Kᵀ is a MatMul's constant scaling"),
    },
}


def unexplained_changes(off, reference, without):
    """The passes whose (match, effect) counts moved, with `off` disabled, in a way DEPENDENCIES
    does not explain: as {pass: (reference, without)}. Counts are {pass: (match, effect)} of the
    passes that ran."""
    allowed = DEPENDENCIES.get(off, {})
    changed = {}
    for name, counts in reference.items():
        if name == off or without.get(name) == counts:
            continue
        direction = allowed.get(name, (None,))[0]
        after = without.get(name)
        if after is None or direction is None:
            changed[name] = (counts, after)
        elif (direction == "+" and after[1] < counts[1]) or (direction == "-" and after[1] > counts[1]):
            changed[name] = (counts, after)
    return changed
