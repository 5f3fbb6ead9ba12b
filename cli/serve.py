"""``gamelog serve``: the table's recorder, a page on every player's phone (docs/serve.md)."""

from __future__ import annotations

import socket

import click

from gamelog.cli.errors import InputProblem
from gamelog.cli.options import store_option

DEFAULT_PORT = 8737


def _reachable(host: str) -> str:
    """The address devices use to reach a server bound to ``host``: this machine's own for a wildcard bind."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


@click.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: this machine only by default; 0.0.0.0 for the phones on your network.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True, help="The port to listen on.")
@click.option("--host-token", metavar="T", envvar="GAMELOG_HOST_TOKEN",
              help="The host's token (env GAMELOG_HOST_TOKEN; at least 22 characters; default: a new random one). "
                   "Give two servers on one store the same token and they accept the same devices.")
@click.option("--url", metavar="URL", help="How devices reach this server, for the links it gives (default: from --host and --port).")
def serve(store: str, host: str, port: int, host_token: str | None, url: str | None) -> None:
    """Serve the table's recorder: a page on every player's phone that records the game as it is played.

    The host opens the link printed at the start, starts a game (its players
    in seat order) and hands each seat its join link or QR code; each entry
    is checked by the same rules as `validate` before it is stored, and every
    device follows the game live. Ctrl-C stops the server; the games stay in
    the store (`gamelog export GAME` gives a game's log).

    Examples:

    \b
      gamelog serve
      gamelog serve --host 0.0.0.0 --store table.sqlite
      gamelog serve --store postgresql://me@db:5432/games --host-token "$TOKEN"
    """
    import uvicorn  # only `serve` loads the server and the web application

    from gamelog.cli.web.app import create_app
    from gamelog.cli.web.tokens import MIN_TOKEN, new_token

    if host_token is not None and len(host_token) < MIN_TOKEN:
        raise click.BadParameter(f"the host token has at least {MIN_TOKEN} characters", param_hint="--host-token")
    token = host_token or new_token()
    port = port or _free_port(host)
    base = url or f"http://{_reachable(host)}:{port}"
    config = uvicorn.Config(create_app(store, token, base), host=host, port=port, log_level="critical",
                            access_log=False, server_header=False, lifespan="on")
    # No access log (no path, no header reaches a log), and uvicorn says only what stops it: a second Ctrl-C while
    # it shuts down is no error to print. The application's own failures are logged by gamelog.serve.
    server = uvicorn.Server(config)
    started = server.startup

    async def startup(sockets: object = None) -> None:  # the links are printed once the port is bound, not before
        await started(sockets=sockets)
        if server.started:
            click.echo(f"gamelog serve: {base} (store {store}); Ctrl-C stops it")
            click.echo(f"the host's link (keep it to yourself): {base}/#token={token}")

    server.startup = startup  # type: ignore[method-assign]
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn shuts down on Ctrl-C, then raises it again: stopping is what was asked
        pass
    except SystemExit:  # uvicorn exits when it cannot start (the port taken): said below, as gamelog says errors
        if server.started:
            raise
    if server.started:
        click.echo("gamelog serve: stopped")
        return
    raise InputProblem(f"cannot listen on {host}:{port} (is another server there?)")


def _free_port(host: str) -> int:
    """A port nobody listens on now, for ``--port 0``: the links must name the port before the server starts."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]
