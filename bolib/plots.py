"""One figure style for every notebook; figures saved as PNG and PDF stamped with their provenance."""
from __future__ import annotations

from pathlib import Path

import seaborn as sns

from bolib.provenance import git_revision
from bolib.stats import mean_ci


def set_style() -> None:
    """The project's figure style (seaborn 'whitegrid', colour-blind palette, compact fonts)."""
    sns.set_theme(context="paper", style="whitegrid", palette="colorblind",
                  rc={"figure.dpi": 110, "savefig.dpi": 200, "axes.titlesize": 10,
                      "legend.fontsize": 8, "figure.constrained_layout.use": True})


def plot_band(ax, x, samples, label: str, **kwargs):
    """Mean over seeds (rows of ``samples``) with its 95% Student-t band."""
    band = mean_ci(samples)
    line, = ax.plot(x, band.mean, label=f"{label} (n={band.n})", **kwargs)
    ax.fill_between(x, band.lower, band.upper, color=line.get_color(), alpha=0.2, linewidth=0)
    return line


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
