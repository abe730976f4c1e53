"""One figure style for every notebook; figures saved as PNG and PDF stamped with their provenance."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import seaborn as sns
from matplotlib.collections import PathCollection
from matplotlib.transforms import ScaledTranslation

from bolib.provenance import git_revision


def set_style() -> None:
    """The project's figure style (seaborn 'whitegrid', colour-blind palette, compact fonts)."""
    sns.set_theme(context="paper", style="whitegrid", palette="colorblind",
                  rc={"figure.dpi": 110, "savefig.dpi": 200, "axes.titlesize": 10,
                      "legend.fontsize": 8, "figure.constrained_layout.use": True})


#: curves per panel drawn with a band; later curves of the panel are thin lines without one
BANDS_PER_PANEL = 5
_LABEL_COLOURS: dict[str, object] = {}  # label -> colour, in order of first use in this process (a notebook)
#: a panel whose plotted values are all positive and span at least this ratio gets a log y axis
DECADES_FOR_LOG = 10.0
_BAND = "bolib-band"  # gid of a band, to count a panel's bands


def _lab(colour) -> np.ndarray:
    """CIELAB coordinates (D65) of a matplotlib colour, for perceptual colour differences."""
    from matplotlib.colors import to_rgb

    rgb = np.asarray(to_rgb(colour))
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    f = np.cbrt(xyz / np.array([0.95047, 1.0, 1.08883]))
    f = np.where(f > 6 / 29, f, (xyz / np.array([0.95047, 1.0, 1.08883])) / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


#: smallest CIELAB difference between two curves' colours in one panel: the colour-blind palette's
#: near pairs (pink and light pink 21, blue and light blue 26, orange and vermillion 26, orange and tan 37)
#: read as one colour at line width
DISTINCT_COLOURS = 40.0


def _panel_colours(ax) -> list:
    """The colours already drawn in ``ax``: its lines' and its bars'."""
    from matplotlib.colors import to_hex

    colours = [line.get_color() for line in ax.get_lines()]
    colours += [to_hex(patch.get_facecolor()) for patch in ax.patches]
    return colours


def label_colour(ax, label: str):
    """The colour of ``label``: the one it was first drawn with in this process (a notebook's kernel), so
    that a method keeps its colour from figure to figure; a new label takes the next colour of the
    palette. If that colour is already in ``ax`` or close to one there (CIELAB difference below
    :data:`DISTINCT_COLOURS`), the palette colour farthest from those of ``ax`` is taken for this curve
    instead (the label keeps its own)."""
    import matplotlib.pyplot as plt

    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    if label not in _LABEL_COLOURS:
        _LABEL_COLOURS[label] = palette[len(_LABEL_COLOURS) % len(palette)]
    colour = _LABEL_COLOURS[label]
    used = [_lab(c) for c in _panel_colours(ax)]
    if not used:
        return colour
    distance = lambda c: min(np.linalg.norm(_lab(c) - u) for u in used)  # noqa: E731
    if distance(colour) < DISTINCT_COLOURS:
        colour = max(palette, key=distance)
    return colour


def plot_band(ax, x, samples, label: str, **kwargs):
    """The median over seeds (rows of ``samples``) with a band from their first to their third
    quartile: the band stays among the values the seeds took, so it never runs below zero for a
    regret and is drawn correctly on a log axis. The first :data:`BANDS_PER_PANEL` curves of a panel
    get their band; later ones are thin lines (their label says so), so that bands do not pile up.
    Without a ``color``, the label's colour (:func:`label_colour`)."""
    samples = np.asarray(samples, dtype=float).reshape(-1, len(x))
    if "color" not in kwargs and "c" not in kwargs:
        kwargs["color"] = label_colour(ax, label)
    q1, median, q3 = np.percentile(samples, [25, 50, 75], axis=0)
    banded = sum(c.get_gid() == _BAND for c in ax.collections) < BANDS_PER_PANEL
    style = {} if banded else {"linewidth": 0.8}
    line, = ax.plot(x, median, label=f"{label} (median{', IQR' if banded else ''}, n={len(samples)})",
                    **{**style, **kwargs})
    if banded and len(samples) > 1:
        ax.fill_between(x, q1, q3, color=line.get_color(), alpha=0.2, linewidth=0, gid=_BAND)
    return line


def plot_log_mean(ax, x, samples, label: str, **kwargs):
    """The geometric mean over seeds (rows of positive ``samples``) with the 95% t-interval of the mean of
    their logarithms: for values spread over decades, or split between runs that found the optimum and
    runs that did not, where quartile bands would fill the panel. Bands per panel as :func:`plot_band`."""
    from scipy import stats as st

    logs = np.log10(np.asarray(samples, dtype=float).reshape(-1, len(x)))
    if "color" not in kwargs and "c" not in kwargs:
        kwargs["color"] = label_colour(ax, label)
    mean = logs.mean(axis=0)
    banded = sum(c.get_gid() == _BAND for c in ax.collections) < BANDS_PER_PANEL and len(logs) > 1
    style = {} if banded else {"linewidth": 0.8}
    line, = ax.plot(x, 10 ** mean, label=f"{label} (geometric mean{', 95% CI' if banded else ''}, n={len(logs)})",
                    **{**style, **kwargs})
    if banded:
        half = st.t.ppf(0.975, len(logs) - 1) * logs.std(axis=0, ddof=1) / np.sqrt(len(logs))
        ax.fill_between(x, 10 ** (mean - half), 10 ** (mean + half), color=line.get_color(), alpha=0.2, linewidth=0,
                        gid=_BAND)
    ax.set_yscale("log")
    return line


def plain_log_ticks(ax, values) -> None:
    """A log x axis ticked at ``values`` (a few sizes, such as dimensions), labelled as plain numbers
    without minor labels (matplotlib's default labels of a log axis spanning less than a decade overlap)."""
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    ax.set_xscale("log")
    ax.set_xticks(list(values))
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())


_LINEAR = "bolib-linear"  # gid of a panel kept on a linear y axis


def keep_linear(ax) -> None:
    """Keep ``ax`` on a linear y axis (:func:`log_scale_if_decades` leaves it alone)."""
    ax.set_gid(_LINEAR)


def log_scale_if_decades(ax) -> None:
    """Give ``ax`` a log y axis if every value its lines and bands plot is positive and they span at
    least :data:`DECADES_FOR_LOG` (left alone if its y scale or y limits were set already, or if it is
    kept linear: :func:`keep_linear`)."""
    if ax.get_yscale() != "linear" or not ax.get_autoscaley_on() or ax.get_gid() == _LINEAR:
        return
    values = [np.asarray(line.get_ydata(), dtype=float) for line in ax.get_lines()
              if line.get_transform() == ax.transData]  # not axhline/axvline (axes coordinates)
    values += [path.vertices[:, 1] for c in ax.collections if c.get_gid() == _BAND for path in c.get_paths()]
    values = np.concatenate([v.ravel() for v in values]) if values else np.empty(0)
    values = values[np.isfinite(values)]
    if len(values) and values.min() > 0 and values.max() / values.min() >= DECADES_FOR_LOG:
        ax.set_yscale("log")


def _covers_data(ax, box) -> bool:
    """Whether the display-space box ``box`` overlaps a line, a filled area (band, bar) or a scatter
    point of ``ax``."""
    for line in ax.get_lines():
        if line.get_visible() and line.get_transform().transform_path(line.get_path()).intersects_bbox(box, filled=False):
            return True
    if any(patch.get_visible() and patch.get_window_extent().overlaps(box) for patch in ax.patches):
        return True
    for collection in ax.collections:
        if not collection.get_visible():
            continue
        if isinstance(collection, PathCollection):  # scatter: its points
            x, y = collection.get_offset_transform().transform(collection.get_offsets()).T
            if np.any((x >= box.x0) & (x <= box.x1) & (y >= box.y0) & (y <= box.y1)):
                return True
        elif any(collection.get_transform().transform_path(path).intersects_bbox(box, filled=True)
                 for path in collection.get_paths()):
            return True
    return False


def _free_corner(ax, box):
    """The first corner or edge of ``ax`` (upper right, upper left, lower left, lower right, then the
    middles of the sides) where a box the size of ``box`` covers no data: that place's centre in axes
    coordinates, or None."""
    from matplotlib.transforms import Bbox

    panel = ax.get_window_extent()
    pad = 0.5 * ax.get_legend().prop.get_size_in_points() * ax.figure.dpi / 72
    xs = {"left": panel.x0 + pad, "right": panel.x1 - pad - box.width, "center": panel.x0 + (panel.width - box.width) / 2}
    ys = {"upper": panel.y1 - pad - box.height, "lower": panel.y0 + pad, "center": panel.y0 + (panel.height - box.height) / 2}
    for vertical, horizontal in (("upper", "right"), ("upper", "left"), ("lower", "left"), ("lower", "right"),
                                 ("center", "right"), ("center", "left"), ("upper", "center"), ("lower", "center")):
        x0, y0 = xs[horizontal], ys[vertical]
        candidate = Bbox.from_bounds(x0, y0, box.width, box.height)
        if not _covers_data(ax, candidate):
            return tuple(ax.transAxes.inverted().transform((x0 + box.width / 2, y0 + box.height / 2)))
    return None


def legends_clear_of_data(fig) -> None:
    """Keep every panel's legend off its data (lines, bands, bars, points): a legend that covers data moves
    to the first free corner or side of its panel (:func:`_free_corner`), or, where there is none, below
    the panel and its axis labels (constrained layout makes room for it; the panel keeps its width). A
    legend that stays is fixed in axes coordinates (matplotlib's "best" would otherwise choose again once
    the layout changes). Moving a legend outside shrinks the panels, so the others are checked again, up to three rounds."""
    legends = {ax: ax.get_legend() for ax in fig.axes if ax.get_legend() is not None and ax.get_legend().get_visible()}
    outside: set = set()
    for _ in range(3):
        fig.canvas.draw()
        moved = False
        for ax, legend in legends.items():
            if ax in outside:
                continue
            box = legend.get_window_extent()
            if _covers_data(ax, box):
                anchor = _free_corner(ax, box)
                if anchor is None:
                    # tick labels and axis label take a fixed height in inches, whatever the panel's size
                    labels = (ax.get_window_extent().y0 - ax.get_tightbbox().y0) / fig.dpi + 0.05
                    under = ax.transAxes + ScaledTranslation(0, -labels, fig.dpi_scale_trans)
                    texts = [text.get_text() for text in legend.get_texts()]
                    legends[ax] = ax.legend(legend.legend_handles, texts, loc="upper center",
                                            bbox_to_anchor=(0.5, 0.0), bbox_transform=under, borderaxespad=0.0,
                                            ncols=2 if len(texts) > 3 else 1, fontsize=legend.get_texts()[0].get_fontsize())
                    outside.add(ax)
                    moved = True
                    continue
            else:
                anchor = tuple(ax.transAxes.inverted().transform(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)))
            legend.set_loc("center")
            legend.set_bbox_to_anchor(anchor, transform=ax.transAxes)
            legend.borderaxespad = 0.0
        if not moved:
            return


def save_figure(fig, directory: str | Path, name: str, *, profile: str, seeds, jobs: str = "") -> list[Path]:
    """Write ``name``.png and ``name``.pdf, recording profile, seeds, git revision and ``jobs`` (the
    fingerprint of the jobs the figure was made from) in their metadata."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    seeds = list(seeds)
    stamp = (f"bolib figure; profile={profile}; seeds={seeds[0]}..{seeds[-1]} (n={len(seeds)}); "
             f"git={git_revision()}; jobs={jobs}")
    paths = [directory / f"{name}.png", directory / f"{name}.pdf"]
    fig.savefig(paths[0], metadata={"Description": stamp, "Software": "bolib"})
    fig.savefig(paths[1], metadata={"Subject": stamp, "Creator": "bolib"})
    return paths
