"""Paper 000's theory harness (bolib.papers.egp_ts): the exactly Bayesian setting of Theorems 1-3."""
import numpy as np


def test_rf_exact_setting_oracle_beats_random_and_weights_concentrate():
    from bolib.papers.egp_ts import rf_exact_job

    runs = {rule: [rf_exact_job(rule, s, 48) for s in range(6)] for rule in ("egp-ts", "oracle", "random")}
    total = {rule: np.mean([r["regret"].sum() for r in v]) for rule, v in runs.items()}
    assert total["oracle"] < total["random"] and total["egp-ts"] < total["random"]
    assert np.mean([r["w_star"][-1] for r in runs["egp-ts"]]) > 0.5
    sync = rf_exact_job("egp-ts", 0, 16, batch_size=4)
    assert sync["round"].max() == 4 and len(sync["regret"]) == 16
    asynchronous = rf_exact_job("egp-ts", 0, 16, batch_size=4, mode="async")
    assert np.all(np.diff(asynchronous["time"]) >= 0)
