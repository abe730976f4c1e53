from bolib.cli import main

if __name__ == "__main__":  # guarded: spawned worker processes re-import the main module
    raise SystemExit(main())
