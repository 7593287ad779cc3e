"""``python -m amigos_cli``: the same as the ``amigos`` console script."""

from amigos_cli.app import main

if __name__ == "__main__":
    main()
