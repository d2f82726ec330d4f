#!/usr/bin/python3
"""Exports a torchvision model to ONNX the way the seed's step 1 does (random weights).

    tools/export_model.py resnet50 out/resnet50.onnx [--opset 11] [--no-constant-folding] [--static]

The batch axis is dynamic ("batch") unless --static. Weights are random (seeded), since nothing
may be downloaded here.
"""
import argparse
import os
import sys
import warnings

import torch
import torchvision.models as models

MODELS = {
    "resnet50": lambda: models.resnet50(weights=None),
    "resnet18": lambda: models.resnet18(weights=None),
    "mobilenet_v2": lambda: models.mobilenet_v2(weights=None),
    "squeezenet1_0": lambda: models.squeezenet1_0(weights=None),
    "efficientnet_b0": lambda: models.efficientnet_b0(weights=None),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("output")
    parser.add_argument("--opset", type=int, default=11)
    parser.add_argument("--no-constant-folding", action="store_true",
                        help="keep BatchNormalization and constant sub-graphs (do_constant_folding=False)")
    parser.add_argument("--static", action="store_true", help="no dynamic batch axis")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = MODELS[args.model]()
    model.eval()
    dummy_input = torch.randn(1, 3, 224, 224)
    dynamic_axes = None if args.static else {"input": {0: "batch"}, "output": {0: "batch"}}
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    tmp = args.output + ".tmp"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, dummy_input, tmp, input_names=["input"], output_names=["output"],
                          dynamic_axes=dynamic_axes, opset_version=args.opset,
                          do_constant_folding=not args.no_constant_folding)
    os.replace(tmp, args.output)
    print(f"ONNX model saved to {args.output} ({os.path.getsize(args.output)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
