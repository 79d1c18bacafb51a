#!/usr/bin/python3
"""floatnets.py: the float32 MobileNetV2 and ResNet18 of `make bench`, for
graft and for PyTorch, and PyTorch's time on them.

    /usr/bin/python3 bench/floatnets.py OUTDIR [RUNS]

Each model is torchvision's (weights=None, torch.manual_seed(0)), given
BatchNorm statistics as tests/models/make_corpus.py gives its models
(its stats(), loaded with runpy), on a 1x3x224x224 input (seed 2), and
exported as that script exports (opset 13, constant folding on).  For
each NAME (mobilenet_v2, resnet18) it writes

  OUTDIR/NAME.onnx       the model, input "input"
  OUTDIR/NAME.in.npy     the input
  OUTDIR/NAME.out.npy    PyTorch's float32 output for it
and OUTDIR/floatnets.txt, the names, and OUTDIR/torch.txt, one line
"torch_ns NAME MEDIAN" per model: the median ns of RUNS (default 20)
single-threaded float32 inferences, and "torch_ns NAME@N MEDIAN" on all
the machine's N cores (when more than one).  Needs torch, torchvision and onnx;
graft itself never uses PyTorch.
"""
import os
import warnings

import numpy as np
import torch
import torchvision

from torchtime import cmdline, run_test_script, timed

NAMES = ("mobilenet_v2", "resnet18")
SHAPE = (1, 3, 224, 224)


def main():
    out, runs = cmdline("floatnets.py")
    warnings.filterwarnings("ignore")
    stats = run_test_script("make_corpus", [out, "none: make no model"])["stats"]
    torch.set_num_threads(1)
    lines = []
    for name in NAMES:
        torch.manual_seed(0)
        m = getattr(torchvision.models, name)(weights=None)
        stats(m, (2,) + SHAPE[1:])
        x = torch.randn(*SHAPE, generator=torch.Generator().manual_seed(2))
        torch.onnx.export(m, x, os.path.join(out, name + ".onnx"), opset_version=13, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
        ns, y = timed(m, x, runs)
        np.save(os.path.join(out, name + ".in.npy"), x.numpy())
        np.save(os.path.join(out, name + ".out.npy"), y.numpy())
        lines.append("torch_ns %s %d\n" % (name, ns))
        print("floatnets.py: %s: PyTorch float32 %.2f ms (median of %d, one thread)" % (name, ns / 1e6, runs))
        cores = len(os.sched_getaffinity(0))
        if cores > 1:
            torch.set_num_threads(cores)
            ns, _ = timed(m, x, runs)
            torch.set_num_threads(1)
            lines.append("torch_ns %s@%d %d\n" % (name, cores, ns))
            print("floatnets.py: %s: PyTorch float32 %.2f ms (median of %d, %d threads)" % (name, ns / 1e6, runs, cores))
    with open(os.path.join(out, "floatnets.txt"), "w") as f:
        f.write("".join(n + "\n" for n in NAMES))
    with open(os.path.join(out, "torch.txt"), "w") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    main()
