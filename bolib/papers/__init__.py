"""One module per paper: the experiment jobs and theory checks that only that paper's notebook runs,
and beside each, ``<paper>_claims``: the paper's claims as declared before any result (whose each
is, where in the paper, the rule and margin that decide it, and its revisions).

Algorithms (ask/tell methods) live in :mod:`bolib.algorithms`; a paper module may import them, the
loop and the models, and nothing imports a paper module except its notebook, its claims module and
its tests. So an edit to a paper module changes the cache keys of that paper's jobs only, and an
edit to a claims module changes none (no job reaches it; ``pyproject.toml``'s import contracts).
"""
