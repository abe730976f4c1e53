"""One module per paper: the experiment jobs and theory checks that only that paper's notebook runs.

Algorithms (ask/tell methods) live in :mod:`bolib.algorithms`; a paper module may import them, the
loop and the models, and nothing imports a paper module except its notebook and its tests. So an
edit here changes the cache keys of that paper's jobs only.
"""
