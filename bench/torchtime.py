"""torchtime.py: how bench/qconv.py and bench/mobilenet.py time PyTorch."""
import statistics
import time

import torch


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
