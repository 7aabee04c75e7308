"""``python -m bonepile``: the same command line as the ``bonepile`` script."""

from bonepile.cli import main

if __name__ == "__main__":
    main()
