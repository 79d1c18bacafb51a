#!/usr/bin/python3
"""mobilenet.py: the quantized networks of `make bench`, for graft and for
PyTorch: MobileNetV2 and ResNet18, quantized by PyTorch, their inputs,
and PyTorch's time on them.

    /usr/bin/python3 bench/mobilenet.py OUTDIR [RUNS]

MobileNetV2 is the real-model test's: tests/models/make_mobilenet.py runs
in this process (runpy) and writes to OUTDIR the QDQ model
mobilenet_v2.onnx, input.npy, and PyTorch's output (torch_int.npy,
torch_q.txt: see that script), leaving the quantized model and the input
in its globals `m` and `x`.  ResNet18 (torchvision's quantizable one,
224 x 224) is quantized as tests/models/make_quantized.py quantizes its
networks (its quantized()), and written to OUTDIR/resnet18/ in the same
files, the model as resnet18.onnx (exported unfolded).  Then each model
is timed on its input, single-threaded and on all the machine's cores
(N, when more than one), and

  DIR/torch.txt      one line "torch_ns ENGINE MEDIAN" per quantized engine
                     that runs the model, medians of RUNS runs (default
                     20), single-threaded; then "torch_ns ENGINE@N MEDIAN"
                     on N threads (torch.set_num_threads)

The models are quantized for qnnpack, the first line; for the other
engines of this PyTorch (onednn, fbgemm) the same quantized weights are
packed again for that engine (an engine that fails is left out, and how
close its output is to qnnpack's is printed).  Needs torch, torchvision
and onnx; graft itself never uses PyTorch.
"""
import os
import sys

import numpy as np
import torch
import torchvision.models.quantization as tq

from torchtime import run_test_script, timed

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "tests", "models")


def repack(model):
    """packs every quantized weight of model again for the current engine"""
    for mod in model.modules():
        if hasattr(mod, "set_weight_bias") and hasattr(mod, "weight") and callable(mod.weight):
            mod.set_weight_bias(mod.weight(), mod.bias())


def time_engines(name, model, x, step, out, runs):
    """writes out/torch.txt: model's median time on x on each quantized
    engine, on one thread and on all cores (step: the quantized output's
    scale, for the comparison)"""
    engines = ["qnnpack"] + [e for e in ("onednn", "fbgemm") if e in torch.backends.quantized.supported_engines]
    cores = len(os.sched_getaffinity(0))
    lines, want, packed = [], None, "qnnpack"
    for engine, threads in [(e, 1) for e in engines] + ([(e, cores) for e in engines] if cores > 1 else []):
        torch.set_num_threads(threads)
        torch.backends.quantized.engine = engine
        try:
            if engine != packed:
                repack(model)
                packed = engine
            ns, y = timed(model, x, runs)
        except Exception as e:  # an engine that cannot run this model
            print("mobilenet.py: %s: %s: cannot run the model: %s" % (name, engine, str(e).splitlines()[0]),
                  file=sys.stderr)
            continue
        if want is None:
            want = y
        elif threads == 1:
            # the same model on another engine's kernels: how close
            within = 100 * ((y - want).abs() <= 1.01 * step).float().mean().item()
            print("mobilenet.py: %s: %s: %.2f%% of the outputs within one step of qnnpack's" % (name, engine, within))
        lines.append("torch_ns %s%s %d\n" % (engine, "@%d" % threads if threads > 1 else "", ns))
    torch.backends.quantized.engine = "qnnpack"
    torch.set_num_threads(1)
    with open(os.path.join(out, "torch.txt"), "w") as f:
        f.write("".join(lines))


def resnet18(out):
    """the quantized ResNet18 and its input, its files written to out"""
    sys.path.insert(0, MODELS)
    import make_quantized
    os.makedirs(out, exist_ok=True)
    m = make_quantized.quantized(lambda: tq.resnet18(weights=None, quantize=False), 224)
    x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(2))
    y, yq = make_quantized.outputs(m, x)
    np.save(os.path.join(out, "input.npy"), x.numpy().astype(np.float32))
    np.save(os.path.join(out, "torch_int.npy"), yq.int_repr().numpy().astype(np.int32))
    with open(os.path.join(out, "torch_q.txt"), "w") as f:
        f.write("%.9g %d %d\n" % (yq.q_scale(), yq.q_zero_point(), int(y.argmax())))
    torch.onnx.export(m, x, os.path.join(out, "resnet18.onnx"), opset_version=13,
                      input_names=["input"], output_names=["output"], do_constant_folding=False)
    return m, x, yq.q_scale()


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: mobilenet.py OUTDIR [RUNS]")
    out = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    g = run_test_script("make_mobilenet", [out])
    nets = [("mobilenet_v2", g["m"], g["x"], g["yq"].q_scale(), out)]
    rout = os.path.join(out, "resnet18")
    nets.append(("resnet18",) + resnet18(rout) + (rout,))

    for name, model, x, step, d in nets:
        time_engines(name, model, x, step, d, runs)


if __name__ == "__main__":
    main()
