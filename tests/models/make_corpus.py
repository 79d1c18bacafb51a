#!/usr/bin/python3
# make_corpus.py: writes the model corpus of `make check-models`
# (tests/models/corpus.sh) into a directory of the build tree; nothing it
# writes is committed.
#
#   /usr/bin/python3 tests/models/make_corpus.py OUTDIR [NAME ...]
#
# needs Debian's python3-torch, python3-torchvision and python3-onnx.  Each
# model is built by torchvision or torch.nn with random weights (fixed
# seeds, no downloads), given realistic BatchNorm statistics (a few random
# batches in training mode, as trained statistics would be), and exported
# by PyTorch's own exporter as a user would (opset 13, constant folding on).
# For each NAME:
#
#   OUTDIR/NAME.onnx      the model, input "input"
#   OUTDIR/NAME.in.npy    a fixed input
#   OUTDIR/NAME.out.npy   PyTorch's output for it (the first output)
#   OUTDIR/NAME.kind      "float"
#
# and the list of names made, OUTDIR/corpus.txt.
import os
import sys
import warnings

import numpy as np
import torch
import torchvision

warnings.filterwarnings("ignore")
out = sys.argv[1] if len(sys.argv) > 1 else "."
only = sys.argv[2:]
os.makedirs(out, exist_ok=True)


def stats(m, shape):
    """BatchNorm statistics of a few random batches (momentum None: their
    mean), so that activations keep a useful scale layer after layer."""
    g = torch.Generator().manual_seed(3)
    for bn in m.modules():
        if isinstance(bn, torch.nn.modules.batchnorm._BatchNorm):
            bn.momentum = None
    m.train()
    with torch.no_grad():
        for _ in range(3):
            m(torch.randn(*shape, generator=g))
    m.eval()


def vision(name):
    return lambda: getattr(torchvision.models, name)(weights=None)


def vit():
    m = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                                             hidden_dim=32, mlp_dim=64, num_classes=10)
    # torchvision starts the head at zero, which would make every output 0
    with torch.no_grad():
        torch.nn.init.normal_(m.heads.head.weight, std=0.5)
        torch.nn.init.normal_(m.class_token, std=0.5)
    return m


class Encoder(torch.nn.Module):
    """torch.nn's transformer encoder (two layers), on (batch, tokens, features)."""
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                                 batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)

    def forward(self, x):
        return self.enc(x)


class Segment(torch.nn.Module):
    """torchvision's LR-ASPP segmentation network: its "out" map."""
    def __init__(self):
        super().__init__()
        self.m = torchvision.models.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None)

    def forward(self, x):
        return self.m(x)["out"]


# name: (constructor, input shape)
MODELS = {
    "resnet18": (vision("resnet18"), (1, 3, 112, 112)),
    "squeezenet1_1": (vision("squeezenet1_1"), (1, 3, 112, 112)),
    "mobilenet_v3_large": (vision("mobilenet_v3_large"), (1, 3, 112, 112)),
    "efficientnet_b0": (vision("efficientnet_b0"), (1, 3, 112, 112)),
    "densenet121": (vision("densenet121"), (1, 3, 64, 64)),
    "convnext_tiny": (vision("convnext_tiny"), (1, 3, 64, 64)),
    "lraspp_mobilenet_v3_large": (Segment, (1, 3, 96, 96)),
    "vit_tiny": (vit, (1, 3, 32, 32)),
    "transformer_encoder": (Encoder, (1, 10, 32)),
}

made = []
for name, (make, shape) in MODELS.items():
    if only and name not in only:
        continue
    torch.manual_seed(0)
    m = make()
    stats(m, (2,) + shape[1:])
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        y = m(x)
    torch.onnx.export(m, x, os.path.join(out, name + ".onnx"), opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    np.save(os.path.join(out, name + ".in.npy"), x.numpy())
    np.save(os.path.join(out, name + ".out.npy"), y.numpy())
    with open(os.path.join(out, name + ".kind"), "w") as f:
        f.write("float\n")
    made.append(name)
with open(os.path.join(out, "corpus.txt"), "w") as f:
    f.write("".join(n + "\n" for n in made))
