"""Long calls release the GIL: two Python threads stepping two engines run at the same time.

The evidence is not a timing (timings flake on a loaded machine) but an observation that is
impossible unless both threads are inside engine.step with the GIL released: the main thread,
running Python code, sees both simulations part-way through their steps at the same moment.
The time of one thread versus two is printed for information (python/bench/step_overhead.py
measures it properly)."""
import threading
import time

import gauss

STEPS = 5000


def test_two_threads_step_concurrently(models):
    model = gauss.load_model(models / "pile.xml")
    engines = [gauss.Engine(model), gauss.Engine(model)]
    datas = [e.make_data() for e in engines]
    final_time = STEPS * engines[0].model.opt["timestep"]
    barrier = threading.Barrier(3)
    intervals = [None, None]
    errors = []

    def work(k):
        try:
            barrier.wait()
            t0 = time.perf_counter()
            engines[k].step(datas[k], STEPS)
            intervals[k] = (t0, time.perf_counter())
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    barrier.wait()
    both_midway = 0
    while any(t.is_alive() for t in threads):
        times = [d.time for d in datas]  # the main thread runs Python meanwhile
        if all(0.0 < t < final_time - 1e-9 for t in times):
            both_midway += 1
        time.sleep(0.0005)
    for t in threads:
        t.join()
    assert not errors, errors
    assert all(abs(d.time - final_time) < 1e-9 for d in datas)
    assert both_midway > 0, "never saw both engines mid-step: the GIL was not released"
    (a0, a1), (b0, b1) = intervals
    assert max(a0, b0) < min(a1, b1)  # the intervals overlap
    print(f"\ntwo threads: {max(a1, b1) - min(a0, b0):.3f} s wall, "
          f"{a1 - a0:.3f} s and {b1 - b0:.3f} s each; main thread saw both mid-step "
          f"{both_midway} times")


def test_one_data_cannot_be_stepped_by_two_threads(models):
    engine = gauss.Engine(gauss.load_model(models / "pile.xml"))
    d = engine.make_data()
    started = threading.Event()

    def long_step():
        started.set()
        while True:  # the main thread's own short steps may hold the Data for a moment
            try:
                engine.step(d, STEPS)
                return
            except RuntimeError:
                time.sleep(0.001)

    t = threading.Thread(target=long_step)
    t.start()
    started.wait()
    refused = False
    while t.is_alive() and not refused:
        try:
            engine.step(d)
        except RuntimeError as e:
            refused = "in use by another thread" in str(e)
    t.join()
    assert refused, "a second thread stepped the Data the first one was stepping"


def _refused_while_running(call, probe):
    """Runs call() in a thread, repeatedly, and probe() from this thread until the probe is
    refused as "in use by another thread". Being refused proves the GIL was released: the main
    thread ran Python code while the other thread was inside the long call."""
    done = threading.Event()
    errors = []

    def work():
        try:
            while not done.is_set():
                try:
                    call()
                except RuntimeError:  # the probe held the object for a moment
                    time.sleep(0.001)
        except Exception as e:  # reported by the main thread
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    refused = False
    deadline = time.monotonic() + 60
    while not refused and time.monotonic() < deadline:
        try:
            probe()
        except RuntimeError as e:
            refused = "in use by another thread" in str(e)
    done.set()
    t.join()
    assert not errors, errors
    return refused


def test_batch_rollout_releases_the_gil(models):
    import numpy as np
    engine = gauss.Engine(gauss.load_model(models / "pile.xml"))
    batch = gauss.Batch(engine, threads=1)
    x0 = np.array([engine.get_state(engine.make_data())] * 2)
    assert _refused_while_running(lambda: batch.rollout(x0, None, 500),
                                  lambda: batch.rollout(x0, None, 1)), \
        "never saw the Batch busy from another thread: the GIL was not released"


def test_transition_fd_releases_the_gil(models):
    engine = gauss.Engine(gauss.load_model(models / "pile.xml"))
    fd = gauss.TransitionFD(engine)
    d = engine.make_data()
    engine.step(d, 50)
    probe_data = engine.make_data()
    assert _refused_while_running(lambda: fd.compute(d), lambda: fd.compute(probe_data)), \
        "never saw the TransitionFD busy from another thread: the GIL was not released"
