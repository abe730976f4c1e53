import os

from bolib.pinning import pin_code_paths

pin_code_paths()  # first: the tests run on the pinned code paths, as the pipeline does

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)


@pytest.fixture
def wave_data():
    """``make(n=25, dim=2, seed=1) -> (X, y)``: n uniform points of [0, 1]^dim and y = sin(4 x_0) cos(3 x_1)
    (the data of the random-feature ensemble, EGP-TS and exact-GP evidence tests)."""
    def make(n=25, dim=2, seed=1):
        X = np.random.default_rng(seed).random((n, dim))
        return X, np.sin(4 * X[:, 0]) * np.cos(3 * X[:, 1])
    return make


def pytest_terminal_summary(terminalreporter):
    """After a run that included the golden tests: this machine's processor and the hashes of single
    library operations (``tests/golden_jobs.py --ops``), so that a log from another processor says
    which operation gives other numbers there."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from bolib.pipeline import processor

    ran = [r for reports in terminalreporter.stats.values() for r in reports
           if getattr(r, "nodeid", "").startswith("tests/test_golden.py") and getattr(r, "when", "") == "call"]
    if not ran:
        return
    script = Path(__file__).with_name("golden_jobs.py")
    try:
        out = subprocess.run([sys.executable, str(script), "--ops"], capture_output=True, text=True, timeout=300)
        hashes = out.stdout.strip() or out.stderr.strip()[-500:]
    except subprocess.TimeoutExpired:
        hashes = "not computed: golden_jobs.py --ops ran past 300 s"
    terminalreporter.section("code path")
    terminalreporter.write_line(f"processor: {json.dumps(processor())}")
    terminalreporter.write_line(f"operation hashes: {hashes}")
