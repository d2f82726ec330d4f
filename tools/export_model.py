#!/usr/bin/python3
"""Exports a torchvision model to ONNX the way the seed's step 1 does (random weights).

    tools/export_model.py resnet50 out/resnet50.onnx [--opset 11] [--no-constant-folding] [--static]
        [--batch N] [--sample-dir DIR --sample-batch 1,4] [--calibrate-bn]

The batch axis is dynamic ("batch") unless --static. Weights are random (seeded), since nothing
may be downloaded here. --sample-dir also writes, per batch size N, a seeded random input
DIR/input_bN.npy and PyTorch's own output for it DIR/torch_output_bN.npy: an independent
expectation for the toolchain's backends.

--calibrate-bn sets every BatchNorm's running statistics from a few random batches before export,
as training would: activations then stay near unit scale, as in a trained network. Without it a
deep random network's activations can shrink below fp16's range (MobileNetV2's logits are ~1e-9),
which says nothing about an NPU's fp16 precision on real models.

With ASC_MODEL_CACHE set, the outputs are also stored in (and, for the same script, libraries and
arguments, copied from) that directory: see export_cache.py.
"""
import argparse
import os
import sys
import warnings

import export_cache


def import_exporters():
    """Imported only when a model is exported: a cache hit must not pay seconds for torch."""
    global np, torch, models, small_models
    import numpy as np
    import torch
    import torchvision.models as models

    import small_models


MODELS = {
    "resnet50": lambda: models.resnet50(weights=None),
    "resnet18": lambda: models.resnet18(weights=None),
    "resnet34": lambda: models.resnet34(weights=None),
    "resnet101": lambda: models.resnet101(weights=None),
    "mobilenet_v2": lambda: models.mobilenet_v2(weights=None),
    "squeezenet1_0": lambda: models.squeezenet1_0(weights=None),
    "efficientnet_b0": lambda: models.efficientnet_b0(weights=None),
    "bert_encoder": lambda: small_models.BertEncoder(),
    "bert_base_encoder": lambda: small_models.BertBaseEncoder(),
    "vit_b_16": lambda: vit_b_16_random_head(),
    # BERT-base's shape (as Ascend ModelZoo's Bert_Base_Uncased runs it: sequence 512).
    "bert_base": lambda: small_models.BertEncoder(vocab=30522, hidden=768, heads=12, layers=12, intermediate=3072,
                                                  max_len=512),
    "yolo_style": lambda: small_models.YoloStyle(),
}

def vit_b_16_random_head():
    """torchvision's ViT-B/16 with its classifier drawn at random: torchvision zero-initialises
    it, which would make every output 0 and a comparison of two runtimes' outputs say nothing."""
    model = models.vit_b_16(weights=None)
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    torch.nn.init.normal_(model.heads.head.bias, std=0.02)
    return model


# Input name, example input and dynamic axes per model (the image models share the default).
IMAGE_INPUT = ("input", lambda batch, gen: torch.randn(batch, 3, 224, 224, generator=gen), {0: "batch"})
INPUTS = {
    "bert_encoder": ("input_ids", lambda batch, gen: torch.randint(0, 1000, (batch, 64), generator=gen),
                     {0: "batch", 1: "sequence"}),
    "bert_base_encoder": ("hidden_states", lambda batch, gen: torch.randn(batch, 512, 768, generator=gen),
                          {0: "batch", 1: "sequence"}),
    "bert_base": ("input_ids", lambda batch, gen: torch.randint(0, 30522, (batch, 512), generator=gen),
                  {0: "batch"}),
    "yolo_style": ("images", lambda batch, gen: torch.randn(batch, 3, 320, 320, generator=gen),
                   {0: "batch", 2: "height", 3: "width"}),
}


def write_samples(model, make_input, directory, batches, seed):
    os.makedirs(directory, exist_ok=True)
    generator = torch.Generator().manual_seed(seed + 1)
    for batch in batches:
        x = make_input(batch, generator)
        with torch.no_grad():
            y = model(x)
        np.save(os.path.join(directory, f"input_b{batch}.npy"), x.numpy())
        np.save(os.path.join(directory, f"torch_output_b{batch}.npy"), y.numpy())
        print(f"sample batch {batch}: input_b{batch}.npy, torch_output_b{batch}.npy")


def calibrate_batch_norm(model, make_input, seed, batches=4, batch_size=8):
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None  # a cumulative average over the calibration batches
    model.train()
    generator = torch.Generator().manual_seed(seed + 2)
    with torch.no_grad():
        for _ in range(batches):
            model(make_input(batch_size, generator))
    model.eval()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("output")
    parser.add_argument("--opset", type=int, default=11)
    parser.add_argument("--no-constant-folding", action="store_true",
                        help="keep BatchNormalization and constant sub-graphs (do_constant_folding=False, "
                             "training mode PRESERVE)")
    parser.add_argument("--static", action="store_true", help="no dynamic batch axis")
    parser.add_argument("--batch", type=int, default=1, help="the example input's batch (with --static: the model's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample-dir", help="write seeded inputs and PyTorch's outputs here")
    parser.add_argument("--sample-batch", default="1", help="comma-separated batch sizes for --sample-dir")
    parser.add_argument("--calibrate-bn", action="store_true",
                        help="set BatchNorm running statistics from random batches (see above)")
    args = parser.parse_args()
    batches = [int(b) for b in args.sample_batch.split(",")] if args.sample_dir else []
    sample_files = [f"{kind}_b{batch}.npy" for batch in batches for kind in ("input", "torch_output")]
    cache = export_cache.directory()
    if cache:
        settings = {name: value for name, value in vars(args).items() if name not in ("output", "sample_dir")}
        settings["sample_batch"] = batches
        entry = export_cache.key(settings)
        if export_cache.restore(cache, entry, args.output, args.sample_dir, sample_files):
            print(f"ONNX model copied to {args.output} from the export cache ({os.path.join(cache, entry)})")
            return 0
    export(args, batches)
    if cache:
        export_cache.store(cache, entry, args.output, args.sample_dir, sample_files)
    return 0


def export(args, batches):
    import_exporters()
    torch.manual_seed(args.seed)
    model = MODELS[args.model]()
    model.eval()
    input_name, make_input, input_axes = INPUTS.get(args.model, IMAGE_INPUT)
    if args.calibrate_bn:
        calibrate_batch_norm(model, make_input, args.seed)
    dummy_input = make_input(args.batch, torch.Generator().manual_seed(args.seed))
    dynamic_axes = None if args.static else {input_name: input_axes, "output": {0: "batch"}}
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    tmp = args.output + ".tmp"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, dummy_input, tmp, input_names=[input_name], output_names=["output"],
                          dynamic_axes=dynamic_axes, opset_version=args.opset,
                          do_constant_folding=not args.no_constant_folding,
                          # torch folds BatchNormalization into Conv in EVAL mode whatever
                          # do_constant_folding says; PRESERVE on an eval() model keeps it.
                          training=(torch.onnx.TrainingMode.PRESERVE if args.no_constant_folding
                                    else torch.onnx.TrainingMode.EVAL))
    os.replace(tmp, args.output)
    print(f"ONNX model saved to {args.output} ({os.path.getsize(args.output)} bytes)")
    if args.sample_dir:
        write_samples(model, make_input, args.sample_dir, batches, args.seed)


if __name__ == "__main__":
    sys.exit(main())
