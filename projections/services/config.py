"""The user's settings: ``$XDG_CONFIG_HOME/gamelog/config.toml`` (``~/.config/gamelog/config.toml`` when unset).

One file keeps what a person would otherwise repeat in every folder: the store, the colour, and where
``gamelog serve`` listens. Every setting is optional; what a command is told wins over the file::

    store = "~/games/gamelog.sqlite"      # as --store: a SQLite file path or a postgresql:// URL
    color = "never"                       # as --color: auto, always or never

    [serve]
    host = "0.0.0.0"                      # as serve --host
    port = 8737                           # as serve --port

The order (docs/cli.md, "Settings"): a command's own option, then the one given before the command, then the
environment (``GAMELOG_STORE``), then this file, then gamelog's default (the colour's: ``auto``, which ``NO_COLOR``
turns off).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from .errors import BadInput

__all__ = ["CONFIG_HOME_ENV", "Config", "ConfigInvalid", "ServeConfig", "config_path", "user_config"]

CONFIG_HOME_ENV = "XDG_CONFIG_HOME"
"""The folder of users' settings (the XDG Base Directory specification); ``~/.config`` when unset or empty."""


class ConfigInvalid(BadInput):
    """Raised when the settings file cannot be read or holds what gamelog cannot use; the text names the file,
    where in it, and what it takes."""


class ServeConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The ``[serve]`` table: where ``gamelog serve`` listens when ``--host``/``--port`` are not given."""

    host: str | None = None
    port: Annotated[int, msgspec.Meta(ge=0, le=65535)] | None = None

    def given(self) -> dict[str, object]:
        """The settings the file gives, by ``serve``'s option names: the defaults of its context (``default_map``)."""
        return {name: value for name, value in msgspec.structs.asdict(self).items() if value is not None}


class Config(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The settings file: each setting None where the file does not give it."""

    store: str | None = None
    color: Literal["auto", "always", "never"] | None = None
    serve: ServeConfig = ServeConfig()


SETTINGS = 'store = "PATH|URL", color = "auto|always|never", and [serve] host = "ADDRESS", port = NUMBER'
"""What the file takes, as an error says it."""


def config_path() -> Path:
    """Where the settings file is looked for (it need not exist)."""
    home = os.environ.get(CONFIG_HOME_ENV) or os.path.join(os.path.expanduser("~"), ".config")
    return Path(home) / "gamelog" / "config.toml"


def user_config() -> Config:
    """The settings of :func:`config_path`; every setting None when there is no such file.

    A ``store`` starting with ``~`` is the user's home. Raises :class:`ConfigInvalid` for a file that cannot
    be read, is not TOML (naming its line), or holds a setting gamelog does not take or a value of the wrong kind.
    """
    path = config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        if not path.exists():  # a folder on the way this account may not enter: it has no settings there
            return Config()
        raise ConfigInvalid(f"{path}: cannot be read ({exc.strerror or exc}); fix it or remove it") from None
    except UnicodeDecodeError as exc:
        raise ConfigInvalid(f"{path}: cannot be read ({exc}); fix it or remove it") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigInvalid(f"{path}: not TOML: {exc}; it takes {SETTINGS}") from None
    try:
        config = msgspec.convert(data, Config)
    except msgspec.ValidationError as exc:
        where = str(exc).replace("`$.", "`")  # the setting's own name (`serve.port`), not a JSON path
        raise ConfigInvalid(f"{path}: {where}; it takes {SETTINGS}") from None
    if config.store is not None and config.store.startswith("~"):
        config = msgspec.structs.replace(config, store=os.path.expanduser(config.store))
    return config
