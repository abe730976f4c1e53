"""Importing this module pins the process's numerical code paths (:func:`bolib.pinning.pin_code_paths`):
``import bolib.pinned`` first thing in a script, or ``dask worker --preload-nanny bolib.pinned``
(the nanny pins; its worker process inherits the pins)."""
from bolib.pinning import pin_code_paths

MODE = pin_code_paths()
