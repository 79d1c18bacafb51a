"""torchtime.py: how bench/qconv.py, bench/mobilenet.py and
bench/floatnets.py time PyTorch; how qconv.py and floatnets.py read
their command line, and floatnets.py runs the test script it builds on."""
import os
import runpy
import statistics
import sys
import time

import torch


def cmdline(prog):
    """OUTDIR and RUNS (default 20) of `PROG OUTDIR [RUNS]`, OUTDIR made;
    exits with the usage on other arguments"""
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: %s OUTDIR [RUNS]" % prog)
    out = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    os.makedirs(out, exist_ok=True)
    return out, runs


def run_test_script(name, args):
    """the globals of tests/models/NAME.py run in this process (runpy)
    as __name__ NAME with the arguments args, tests/models on sys.path
    as when the script runs by itself (for its imports of its siblings)"""
    here = os.path.dirname(os.path.abspath(__file__))
    models = os.path.join(here, "..", "tests", "models")
    script = os.path.join(models, name + ".py")
    if models not in sys.path:
        sys.path.insert(0, models)
    argv, sys.argv = sys.argv, [script] + list(args)
    try:
        return runpy.run_path(script, run_name=name)
    finally:
        sys.argv = argv


def timed(model, x, runs):
    """median ns of runs calls of model(x), after one warm-up call, and
    the warm-up call's output"""
    with torch.no_grad():
        y = model(x)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter_ns()
            model(x)
            times.append(time.perf_counter_ns() - t0)
    return statistics.median(times), y
