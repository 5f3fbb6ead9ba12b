"""``python -m gamelog``: the ``gamelog`` command itself, for where the scripts folder is not on PATH.

The one module of the package that reaches up to ``cli/``: it is the command's second door, not a service.
"""

from gamelog.cli.main import main

if __name__ == "__main__":
    main(prog_name="gamelog")
