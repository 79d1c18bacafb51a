#!/usr/bin/python3
"""mobilenet.py: the MobileNetV2 of `make bench`, for graft and for PyTorch:
the real-model test's quantized model and input, and PyTorch's time on it.

    /usr/bin/python3 bench/mobilenet.py OUTDIR [RUNS]

Runs tests/models/make_mobilenet.py in this process (runpy), which writes
to OUTDIR the QDQ model mobilenet_v2.onnx, input.npy, and PyTorch's output
(torch_int.npy, torch_q.txt: see that script), and leaves the quantized
model and the input in its globals `m` and `x`; then times that model on
that input, single-threaded, and writes

  OUTDIR/torch.txt   one line "torch_ns ENGINE MEDIAN" per quantized engine
                     that runs the model, medians of RUNS runs (default 20)

The model is quantized for qnnpack, its first line; for the other engines
of this PyTorch (onednn, fbgemm) the same quantized weights are packed
again for that engine (an engine that fails is left out, and how close
its output is to qnnpack's is printed).  Needs torch, torchvision and
onnx; graft itself never uses PyTorch.
"""
import os
import runpy
import sys

import torch

from torchtime import timed


def repack(model):
    """packs every quantized weight of model again for the current engine"""
    for mod in model.modules():
        if hasattr(mod, "set_weight_bias") and hasattr(mod, "weight") and callable(mod.weight):
            mod.set_weight_bias(mod.weight(), mod.bias())


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: mobilenet.py OUTDIR [RUNS]")
    out = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "tests", "models", "make_mobilenet.py")
    argv, sys.argv = sys.argv, [script, out]
    try:
        g = runpy.run_path(script, run_name="make_mobilenet")
    finally:
        sys.argv = argv
    model, x = g["m"], g["x"]
    step = g["yq"].q_scale()    # the quantized output's scale

    torch.set_num_threads(1)
    engines = ["qnnpack"] + [e for e in ("onednn", "fbgemm") if e in torch.backends.quantized.supported_engines]
    lines, want = [], None
    for engine in engines:
        torch.backends.quantized.engine = engine
        try:
            if engine != "qnnpack":
                repack(model)
            ns, y = timed(model, x, runs)
        except Exception as e:  # an engine that cannot run this model
            print("mobilenet.py: %s: cannot run the model: %s" % (engine, str(e).splitlines()[0]), file=sys.stderr)
            continue
        if want is None:
            want = y
        else:
            # the same model on another engine's kernels: how close
            within = 100 * ((y - want).abs() <= 1.01 * step).float().mean().item()
            print("mobilenet.py: %s: %.2f%% of the outputs within one step of qnnpack's" % (engine, within))
        lines.append("torch_ns %s %d\n" % (engine, ns))
    with open(os.path.join(out, "torch.txt"), "w") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    main()
