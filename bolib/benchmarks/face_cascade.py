"""Stand-in for Fig. 5b of paper 002 (Kandasamy, Schneider & Póczos, "High dimensional Bayesian
optimisation and bandits via additive models", ICML 2015, arXiv:1503.01673): tuning the stage thresholds
of a Viola-Jones boosted cascade for face detection.

The paper tunes the 22 stage thresholds of OpenCV's Haar frontal-face cascade to maximise its accuracy on
1,000 faces and non-faces of the Viola-Jones training set. Neither is available offline here: the locked
OpenCV (5.0) ships no Haar cascades and no ``CascadeClassifier``, and the image set is not public. What is
bundled: scikit-image's copy of OpenCV's LBP frontal-face cascade (``lbpcascade_frontalface_opencv.xml``:
20 boosted stages of multi-block LBP stumps on a 24 x 24 window, 139 stumps) and its ``lfw_subset`` (100
faces from Labeled Faces in the Wild and 100 non-face patches, 25 x 25 grey images). So the stand-in has
20 thresholds instead of 22, LBP instead of Haar features, and its own image set:

* images: each 25 x 25 image gives five 24 x 24 windows, the four corner crops and the whole image resized
  to 24 x 24 (bilinear), as 8-bit grey levels: 1,000 windows, 500 faces and 500 non-faces;
* a window's stage sums (computed once): for each stump, the multi-block LBP code of its feature (a 3 x 3
  grid of w x h blocks at (x, y); bit set when a surrounding block's sum is >= the centre block's, bits in
  OpenCV's order) selects the left leaf if the code's bit is set in the stump's 256-bit subset, else the
  right leaf; a stage's sum is the sum of its stumps' leaves;
* objective: theta are the stage thresholds; a window is declared a face when every stage sum is >= its
  threshold (the cascade's rule); f(theta) = the fraction of windows declared correctly (accuracy);
* domain: a box of width 0.5 |tau_k| around each of the cascade's own thresholds tau_k (the paper tunes
  in "a neighbourhood around the configuration given in OpenCV", Sec. 5.3, without its width or
  position); f(tau) is ``meta["default_accuracy"]``. With ``box_seed`` None the box is centred on the
  defaults, tau_k +- 25% |tau_k|. Centred, the point that DIRECT evaluates first is OpenCV's own
  configuration, the best-informed point of the box; so the runs of Fig. 5b draw the box's position per
  run instead (``box_seed``): from the stream ``rng(box_seed, "face-cascade-box")``, each default sits
  at a fraction u_k of its box's width from the lower end, u_k uniform on [0.1, 0.3] or on [0.7, 0.9]
  (the side drawn with probability 1/2), so that every default lies inside its box and at least a fifth
  of the width from its middle. The box's centre then scores 0.60 to 0.62 on seeds 0-7, below the
  defaults' 0.633 and the best of 50 uniform points of the box (about 0.63 to 0.64).

f is piecewise constant; its maximum over the box is not known (``optimum`` NaN).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.runtime import rng as make_rng

#: half-width of the box around each default threshold, as a fraction of its magnitude
WIDTH = 0.25
#: with a ``box_seed``: the range of each default's distance from the nearer end of its box, as a fraction
#: of the box's width
OFF_CENTRE = (0.1, 0.3)
WINDOW = 24
#: bit of each surrounding block (row-major 3 x 3 grid, centre 4) in OpenCV's LBP code
LBP_BITS = {0: 128, 1: 64, 2: 32, 5: 16, 8: 8, 7: 4, 6: 2, 3: 1}


def cascade_path() -> str:
    from skimage import data

    return data.lbp_frontal_face_cascade_filename()


@lru_cache(maxsize=2)
def load_cascade(path: str | None = None) -> dict:
    """The cascade as arrays: ``rects`` (features x 4: x, y, w, h), and per stump its ``stage``,
    ``feature``, ``subset`` (8 int32 words of the 256-bit category mask) and ``leaves`` (2); the
    stages' ``thresholds`` (leaves and thresholds in single precision, as stored)."""
    root = ET.parse(path or cascade_path()).getroot().find("cascade")
    rects = np.array([[int(v) for v in f.find("rect").text.split()] for f in root.find("features")])
    stage, feature, subset, leaves, thresholds = [], [], [], [], []
    for k, st in enumerate(root.find("stages")):
        thresholds.append(float(st.find("stageThreshold").text))
        for weak in st.find("weakClassifiers"):
            nodes = [int(v) for v in weak.find("internalNodes").text.split()]
            stage.append(k)
            feature.append(nodes[2])
            subset.append(nodes[3:11])
            leaves.append([float(v) for v in weak.find("leafValues").text.split()])
    return {"rects": rects, "stage": np.array(stage), "feature": np.array(feature),
            "subset": np.array(subset, dtype=np.int64) & 0xFFFFFFFF, "leaves": np.array(leaves, dtype=np.float32),
            "thresholds": np.array(thresholds, dtype=np.float32)}


def lbp_codes(windows: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Multi-block LBP codes (windows x features) of 24 x 24 grey ``windows`` (module docstring)."""
    windows = np.asarray(windows, dtype=np.int64)
    integral = np.zeros((len(windows), WINDOW + 1, WINDOW + 1), dtype=np.int64)
    integral[:, 1:, 1:] = windows.cumsum(1).cumsum(2)
    codes = np.zeros((len(windows), len(rects)), dtype=np.int64)
    for i, (x, y, w, h) in enumerate(rects):
        sums = np.empty((len(windows), 9), dtype=np.int64)
        for b in range(9):
            top, left = y + (b // 3) * h, x + (b % 3) * w
            sums[:, b] = (integral[:, top + h, left + w] - integral[:, top, left + w] - integral[:, top + h, left]
                          + integral[:, top, left])
        for b, bit in LBP_BITS.items():
            codes[:, i] |= np.where(sums[:, b] >= sums[:, 4], bit, 0)
    return codes


def stage_sums(windows: np.ndarray, cascade: dict) -> np.ndarray:
    """The sum of each stage's stump outputs (windows x stages), accumulated stump by stump in single
    precision as the cascade's own code does (a window can sit exactly on a stage threshold)."""
    codes = lbp_codes(windows, cascade["rects"])[:, cascade["feature"]]
    words = np.take_along_axis(np.broadcast_to(cascade["subset"], (len(codes), *cascade["subset"].shape)),
                               (codes >> 5)[:, :, None], axis=2)[:, :, 0]
    left = (words >> (codes & 31)) & 1
    outputs = np.where(left == 1, cascade["leaves"][:, 0], cascade["leaves"][:, 1])
    sums = np.zeros((len(windows), len(cascade["thresholds"])), dtype=np.float32)
    np.add.at(sums.T, cascade["stage"], outputs.T)
    return sums


def windows_and_labels() -> tuple[np.ndarray, np.ndarray]:
    """The 1,000 windows (8-bit, 24 x 24) and labels (1 face, 0 non-face) of the module docstring."""
    from skimage import data
    from skimage.transform import resize

    images = data.lfw_subset()
    labels = np.r_[np.ones(100), np.zeros(100)]
    crops = [images[:, r:r + WINDOW, c:c + WINDOW] for r in (0, 1) for c in (0, 1)]
    crops.append(np.array([resize(im, (WINDOW, WINDOW), order=1, anti_aliasing=False) for im in images]))
    windows = np.concatenate(crops)
    return np.rint(255 * windows).astype(np.uint8), np.tile(labels, len(crops))


def accuracy(thresholds: np.ndarray, sums: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Accuracy of the cascade with each row of ``thresholds``: a window is a face iff every stage sum is
    >= its threshold."""
    thresholds = np.atleast_2d(thresholds)
    face = np.all(sums[None] >= thresholds[:, None, :], axis=2)
    return (face == labels[None].astype(bool)).mean(axis=1)


def default_fractions(box_seed: int) -> np.ndarray:
    """Where each default threshold sits in its box, as a fraction of the width from the lower end, for
    ``box_seed`` (module docstring): uniform on :data:`OFF_CENTRE` from one end, the end drawn per stage."""
    stream = make_rng(box_seed, "face-cascade-box")
    n = len(load_cascade()["thresholds"])
    upper = stream.integers(2, size=n).astype(bool)
    near = stream.uniform(*OFF_CENTRE, size=n)
    return np.where(upper, 1 - near, near)


def face_cascade_problem(box_seed: int | None = None) -> Problem:
    """The 20-dimensional stand-in (module docstring), thresholds in native units; the box centred on the
    defaults (``box_seed`` None) or placed off them per :func:`default_fractions`."""
    cascade = load_cascade()
    windows, labels = windows_and_labels()
    sums = stage_sums(windows, cascade)
    tau = cascade["thresholds"]
    if box_seed is None:
        bounds = np.array([tau - WIDTH * np.abs(tau), tau + WIDTH * np.abs(tau)])
    else:
        tau64, width = tau.astype(float), 2 * WIDTH * np.abs(tau.astype(float))
        u = default_fractions(box_seed)
        bounds = np.array([tau64 - u * width, tau64 + (1 - u) * width])
    meta = {"default_thresholds": tau.tolist(), "default_accuracy": float(accuracy(tau, sums, labels)[0]),
            "faces": int(labels.sum()), "windows": len(labels), "box_seed": box_seed}
    return Problem("face-cascade20", lambda X: accuracy(X, sums, labels), bounds, meta=meta)


@benchmark(20, fixed=True)
def face_cascade20(d=20, box_seed: int | None = None):
    """Paper 002's Fig. 5b stand-in (:func:`face_cascade_problem`); ``box_seed`` places the box off the
    default thresholds, one placement per seed."""
    return face_cascade_problem(box_seed)
