"""The figure conventions of bolib.plots: quartile bands within the data, a few bands per panel, log
axes where the values span decades."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from bolib import plots  # noqa: E402


def _bands(ax):
    return [c for c in ax.collections if c.get_gid() == plots._BAND]


def test_the_band_stays_within_the_seeds_values_and_the_median_is_drawn():
    rng = np.random.default_rng(0)
    regret = np.exp(rng.normal(size=(7, 30)) * 3)  # positive, heavy-tailed: a mean +- t band would cross zero
    fig, ax = plt.subplots()
    line = plots.plot_band(ax, np.arange(30), regret, "m")
    (band,) = _bands(ax)
    lows = band.get_paths()[0].vertices[:, 1]
    assert lows.min() >= regret.min() and np.allclose(line.get_ydata(), np.median(regret, axis=0))
    assert "median" in line.get_label() and "n=7" in line.get_label()
    plt.close(fig)


def test_a_panel_gets_at_most_five_bands_and_every_curve_its_label():
    fig, ax = plt.subplots()
    for k in range(8):
        plots.plot_band(ax, np.arange(5), np.random.default_rng(k).random((4, 5)), f"c{k}")
    assert len(_bands(ax)) == plots.BANDS_PER_PANEL
    labels = [line.get_label() for line in ax.get_lines()]
    assert len(labels) == 8 and all(label.startswith(f"c{k} ") for k, label in enumerate(labels))
    plt.close(fig)


def test_log_axis_only_where_positive_values_span_decades():
    fig, axes = plt.subplots(1, 3)
    plots.plot_band(axes[0], np.arange(4), np.array([[1e3, 10, 1, 0.5]] * 3), "decades")
    plots.plot_band(axes[1], np.arange(4), np.array([[3.0, 2, 1, 0.5]] * 3), "one decade")
    plots.plot_band(axes[2], np.arange(4), np.array([[1e3, 10, 1, 0.0]] * 3), "reaches zero")
    for ax in axes:
        plots.log_scale_if_decades(ax)
    assert [ax.get_yscale() for ax in axes] == ["log", "linear", "linear"]
    plt.close(fig)


def test_reference_lines_in_axes_coordinates_do_not_decide_the_scale():
    fig, ax = plt.subplots()
    plots.plot_band(ax, np.arange(4), np.array([[1e3, 10, 1, 0.5]] * 3), "decades")
    ax.axvline(1.5, color="0.6")  # y from 0 to 1 in axes coordinates
    plots.log_scale_if_decades(ax)
    assert ax.get_yscale() == "log"
    plt.close(fig)


def test_a_panel_with_its_own_limits_keeps_its_scale():
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [1e-9, 0.5, 1.0])  # weights: positive, spanning decades, drawn on [0, 1] on purpose
    ax.set(ylim=(0, 1))
    plots.log_scale_if_decades(ax)
    assert ax.get_yscale() == "linear"
    plt.close(fig)


def test_a_label_keeps_its_colour_across_figures_and_a_panel_never_repeats_one():
    fig, (a, b) = plt.subplots(1, 2)
    first = plots.plot_band(a, np.arange(3), np.ones((2, 3)), "method P").get_color()
    plots.plot_band(a, np.arange(3), np.ones((2, 3)), "method Q")
    plots.plot_band(b, np.arange(3), np.ones((2, 3)), "method Q")  # drawn first in this panel
    assert plots.plot_band(b, np.arange(3), np.ones((2, 3)), "method P").get_color() == first
    fig2, c = plt.subplots()
    colours = [plots.plot_band(c, np.arange(3), np.ones((2, 3)), f"label {k}").get_color() for k in range(12)]
    assert len(set(colours[:10])) == 10  # distinct within the panel while the palette lasts
    assert plots.plot_band(c, np.arange(3), np.ones((2, 3)), "method P").get_color() in colours  # reuse only when full
    plt.close(fig)
    plt.close(fig2)


def test_a_panel_kept_linear_stays_linear():
    fig, ax = plt.subplots()
    plots.plot_band(ax, np.arange(4), np.array([[1e3, 10, 1, 0.5]] * 3), "decades")
    plots.keep_linear(ax)
    plots.log_scale_if_decades(ax)
    assert ax.get_yscale() == "linear"
    plt.close(fig)


def _legend_box(fig, ax):
    fig.canvas.draw()
    return ax.get_legend().get_window_extent(), ax.get_window_extent()


def test_a_legend_over_a_curve_moves_to_a_free_corner_and_one_in_an_empty_corner_stays():
    x = np.linspace(0, 1, 50)
    fig, ax = plt.subplots()
    ax.plot(x, 1 - x, label="falling")  # runs through the upper-left and lower-right corners
    ax.legend(loc="upper left")
    plots.legends_clear_of_data(fig)
    legend, panel = _legend_box(fig, ax)
    assert legend.x0 > panel.x0 + panel.width / 2 and legend.y0 > panel.y0 + panel.height / 2  # upper right
    assert not plots._covers_data(ax, legend)

    fig, ax = plt.subplots()
    ax.plot(x, x, label="rising")  # leaves the upper-left corner empty
    ax.legend(loc="upper left")
    plots.legends_clear_of_data(fig)
    legend, panel = _legend_box(fig, ax)
    assert panel.x0 <= legend.x0 < legend.x1 <= panel.x1


def test_a_legend_over_a_band_or_a_point_moves_off_it_and_below_the_panel_where_no_corner_is_free():
    x = np.linspace(0, 1, 50)
    for draw in (lambda ax: ax.fill_between(x, 0.8, 1.0, label="band"),
                 lambda ax: ax.scatter([0.97], [0.97], label="point")):
        fig, ax = plt.subplots()
        ax.plot(x, np.zeros_like(x), label="floor")
        draw(ax)
        ax.set(xlim=(0, 1), ylim=(-0.1, 1.0))
        ax.legend(loc="upper right")
        plots.legends_clear_of_data(fig)
        legend, panel = _legend_box(fig, ax)
        assert not plots._covers_data(ax, legend) and legend.x1 <= panel.x1  # moved inside the panel
        plt.close(fig)
    fig, ax = plt.subplots()
    ax.fill_between(x, -1.0, 1.0, label="everywhere")
    ax.set(xlim=(0, 1), ylim=(-1.0, 1.0))
    ax.legend(loc="upper right")
    plots.legends_clear_of_data(fig)
    legend, panel = _legend_box(fig, ax)
    assert legend.y1 <= panel.y0  # below the panel, which keeps its width
    assert ax.get_legend().get_texts()[0].get_text() == "everywhere"


def test_the_log_mean_band_is_the_t_interval_of_the_mean_log():
    x = np.arange(4)
    samples = np.array([[1e-6] * 4, [1e-1] * 4, [1e-3] * 4])
    fig, ax = plt.subplots()
    line = plots.plot_log_mean(ax, x, samples, "m")
    np.testing.assert_allclose(line.get_ydata(), 1e-10 ** (1 / 3))  # geometric mean of 1e-6, 1e-1, 1e-3
    band = _bands(ax)[0].get_paths()[0].vertices[:, 1]
    half = 4.302652729911275 * 2.5166114784235836 / np.sqrt(3)  # t(0.975, 2) * SD of the logs / sqrt(n)
    np.testing.assert_allclose([band.min(), band.max()], [10 ** (-10 / 3 - half), 10 ** (-10 / 3 + half)], rtol=1e-9)
    assert ax.get_yscale() == "log" and "geometric mean, 95% CI, n=3" in line.get_label()


def test_a_curve_never_gets_a_colour_close_to_one_already_in_its_panel():
    plots.set_style()
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots()
    x = np.arange(3)
    ax.plot(x, x, color=palette[1])  # the palette's orange
    colour = plots.label_colour(ax, "a label first drawn here")
    assert np.linalg.norm(plots._lab(colour) - plots._lab(palette[1])) >= plots.DISTINCT_COLOURS
    close = [c for c in palette if np.linalg.norm(plots._lab(c) - plots._lab(palette[1])) < plots.DISTINCT_COLOURS]
    assert len(close) >= 2  # the palette has near-duplicates (orange and vermillion), which the rule keeps apart


def test_cielab_of_white_and_black():
    np.testing.assert_allclose(plots._lab("white"), [100, 0, 0], atol=0.05)
    np.testing.assert_allclose(plots._lab("black"), [0, 0, 0], atol=1e-9)
