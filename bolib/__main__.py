from bolib.pinning import pin_code_paths

pin_code_paths()  # before anything loads numpy, scipy or torch: see bolib/pinning.py

from bolib.cli import main  # noqa: E402

if __name__ == "__main__":  # guarded: spawned worker processes re-import the main module
    raise SystemExit(main())
