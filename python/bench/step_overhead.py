"""Benchmark (not a test): the cost of stepping from Python against the C++ `gauss bench`.

Measures, each as the median of interleaved repeats (A, B, A, B, ... so that load from other
processes hits both sides alike):
  1. per-call overhead of engine.step(d) in a Python loop on a small model, against the C++
     step time of `gauss bench` on the same model and configuration;
  2. engine.step(d, n=1000) per step against `gauss bench` (one C++ loop either way);
  3. two threads stepping two engines against one thread (the GIL is released while stepping).
With --instructions, it counts instructions with valgrind's callgrind instead (independent of
the machine's load): instructions per step = difference of two runs of different lengths.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/step_overhead.py
    PYTHONPATH=build/python /usr/bin/python3 python/bench/step_overhead.py --instructions
"""
import argparse
import os
import re
import sys
import tempfile
import statistics
import subprocess
import threading
import time

import gauss

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli_ns_per_step(cli, model, steps, sets):
    """ns per step reported by one `gauss bench` run (one repeat)."""
    args = [cli, "bench", model, "--steps", str(steps), "--repeat", "1"]
    for s in sets:
        args += ["--set", s]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return float(values["ns_per_step"])


def python_loop_ns(engine, d, steps):
    """ns per call of engine.step(d) in a Python for loop."""
    step = engine.step
    engine.reset(d)
    t0 = time.perf_counter_ns()
    for _ in range(steps):
        step(d)
    return (time.perf_counter_ns() - t0) / steps


def python_batch_ns(engine, d, steps, n):
    """ns per step of engine.step(d, n) called steps/n times."""
    engine.reset(d)
    t0 = time.perf_counter_ns()
    for _ in range(steps // n):
        engine.step(d, n)
    return (time.perf_counter_ns() - t0) / (steps // n * n)


def empty_loop_ns(steps):
    t0 = time.perf_counter_ns()
    for _ in range(steps):
        pass
    return (time.perf_counter_ns() - t0) / steps


def threads_seconds(engines, datas, steps):
    """Wall seconds for each (engine, data) pair to step `steps` times, one thread per pair."""
    for e, d in zip(engines, datas):
        e.reset(d)
    threads = [threading.Thread(target=e.step, args=(d, steps)) for e, d in zip(engines, datas)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0


PY_LOOP = """
import sys, gauss
engine = gauss.Engine(gauss.load_model(sys.argv[1])); d = engine.make_data(); n = int(sys.argv[2])
if sys.argv[3] == "batch":
    engine.step(d, n)
else:
    for _ in range(n):
        engine.step(d)
"""


def instructions(command):
    """Instructions executed by `command` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              *command], capture_output=True, text=True, check=True)
    return int(re.search(r"refs:\s+([\d,]+)", run.stderr).group(1).replace(",", ""))


def instructions_per_step(model, cli, n1, n2):
    """(model) => instructions per step of gauss bench, a Python step(d) loop, step(d, n)."""
    out = {}
    for name, command in (
            ("C++ gauss bench", lambda n: [cli, "bench", model, "--steps", str(n), "--repeat", "1"]),
            ("py step(d) loop", lambda n: [sys.executable, "-c", PY_LOOP, model, str(n), "loop"]),
            ("py step(d, n)", lambda n: [sys.executable, "-c", PY_LOOP, model, str(n), "batch"])):
        out[name] = (instructions(command(n2)) - instructions(command(n1))) / (n2 - n1)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=os.path.join(REPO, "build", "bin", "gauss"))
    parser.add_argument("--small", default=os.path.join(REPO, "models", "pendulum.xml"))
    parser.add_argument("--large", default=os.path.join(REPO, "models", "pile.xml"))
    parser.add_argument("--steps", type=int, default=200000, help="steps per repeat, small model")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per step with callgrind instead of timing")
    args = parser.parse_args()

    if args.instructions:
        for model, n1, n2 in ((args.small, 2000, 12000), (args.large, 200, 1200)):
            counts = instructions_per_step(model, args.cli, n1, n2)
            cpp = counts["C++ gauss bench"]
            print(f"{os.path.basename(model)}: instructions per step: " + ", ".join(
                f"{k} {v:.0f} ({100 * (v / cpp - 1):+.1f}%)" for k, v in counts.items()))
        return

    rows = []
    for label, model_path, steps in (("small", args.small, args.steps),
                                     ("large", args.large, max(1000, args.steps // 50))):
        sets = []
        engine = gauss.Engine(gauss.load_model(model_path))
        d = engine.make_data()
        cpp, loop, batch, empty = [], [], [], []
        for _ in range(args.repeat):  # interleaved
            cpp.append(cli_ns_per_step(args.cli, model_path, steps, sets))
            loop.append(python_loop_ns(engine, d, steps))
            batch.append(python_batch_ns(engine, d, steps, 1000))
            empty.append(empty_loop_ns(steps))
        med = statistics.median
        rows.append((label, os.path.basename(model_path), med(cpp), med(loop), med(batch), med(empty)))

    print(f"{'model':18} {'C++ ns/step':>12} {'py step(d)':>11} {'overhead':>9} "
          f"{'py step(d,1000)':>16} {'vs C++':>7}   (empty py loop {rows[0][5]:.0f} ns/iter)")
    for label, name, cpp, loop, batch, _ in rows:
        print(f"{label + ' ' + name:18} {cpp:12.1f} {loop:11.1f} {loop - cpp:9.1f} "
              f"{batch:16.1f} {100 * (batch / cpp - 1):+6.1f}%")

    # threads: one engine vs two engines in two threads, same number of steps each
    model = gauss.load_model(args.large)
    engines = [gauss.Engine(model), gauss.Engine(model)]
    datas = [e.make_data() for e in engines]
    steps = max(1000, args.steps // 50)
    one, two = [], []
    for _ in range(args.repeat):
        one.append(threads_seconds(engines[:1], datas[:1], steps))
        two.append(threads_seconds(engines, datas, steps))
    print(f"threads ({os.path.basename(args.large)}, {steps} steps each): one engine "
          f"{statistics.median(one):.3f} s, two engines in two threads "
          f"{statistics.median(two):.3f} s (ratio {statistics.median(two) / statistics.median(one):.2f}; "
          f"{os.cpu_count()} cores, shared with whatever else runs)")


if __name__ == "__main__":
    main()
