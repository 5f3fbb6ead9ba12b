"""``gamelog serve``: the table's recorder, a page on every player's phone (docs/serve.md)."""

from __future__ import annotations

import socket
from typing import Any

import click
from click.core import ParameterSource

from gamelog.cli.errors import InputProblem
from gamelog.cli.options import store_option

DEFAULT_PORT = 8737


@click.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: this machine only by default; 0.0.0.0 for the phones on your network.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True, help="The port to listen on.")
@click.option("--host-token", metavar="T", envvar="GAMELOG_HOST_TOKEN", show_envvar=True,
              help="The host's secret, given by hand: only from the environment (GAMELOG_HOST_TOKEN), never on the "
                   "command line, where every user of the machine sees it. Default: the one the store keeps.")
@click.option("--host-token-file", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help="Read the host's secret from FILE (its first line) instead of the store's.")
@click.option("--rotate-host-token", is_flag=True,
              help="Make the store keep a new host secret: every link and QR code handed out so far stops working.")
@click.option("--url", metavar="URL", help="How devices reach this server, for the links it gives (default: from --host "
                                           "and --port; for 0.0.0.0 or ::, this machine's LAN address).")
@click.pass_context
def serve(ctx: click.Context, store: str, host: str, port: int, host_token: str | None, host_token_file: Any,
          rotate_host_token: bool, url: str | None) -> None:
    """Serve the table's recorder: a page on every player's phone that records the game as it is played.

    The host opens the link printed at the start, starts a game (its players
    in seat order) and hands each seat its join link or QR code; each entry
    is checked by the same rules as `validate` before it is stored, and every
    device follows the game live. Ctrl-C stops the server; the games stay in
    the store (`gamelog export GAME` gives a game's log). The host's secret,
    from which every link is made, is kept in the store: the links work after
    a restart, and every server on one store accepts the same devices.

    Examples:

    \b
      gamelog serve
      gamelog serve --host 0.0.0.0 --store table.sqlite
      gamelog serve --host 0.0.0.0 --url http://table.local:8737
      gamelog serve --store postgresql://me@db:5432/games
      GAMELOG_HOST_TOKEN="$(cat secret)" gamelog serve --store table.sqlite
      gamelog serve --rotate-host-token   # every link given before stops working
    """
    if host_token is not None and ctx.get_parameter_source("host_token") is ParameterSource.COMMANDLINE:
        raise click.BadParameter("a secret on the command line is seen by every user of this machine (the process "
                                 "list): set GAMELOG_HOST_TOKEN or give --host-token-file FILE", param_hint="--host-token")
    given = host_token_file.readline().strip() if host_token_file is not None else host_token
    import uvicorn  # only `serve` loads the server and the web application

    from gamelog.cli.web.address import reachable
    from gamelog.cli.web.app import create_app
    from gamelog.host_secret import host_secret

    token = host_secret(store, given, rotate=rotate_host_token)  # a store that cannot be opened is said here
    port = port or _free_port(host)
    address, warning = reachable(host)
    if warning is not None and url is None:
        click.echo(f"gamelog serve: warning: {warning}", err=True)
    base = url or f"http://{address}:{port}"
    app = create_app(store, token, base)
    config = uvicorn.Config(app, host=host, port=port, log_level="critical",
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
    if app.state.table.failed is not None:  # the store could not be opened as it started: its own error
        raise app.state.table.failed
    raise InputProblem(f"cannot listen on {host}:{port} (is another server there?)")


def _free_port(host: str) -> int:
    """A port nobody listens on now, for ``--port 0``: the links must name the port before the server starts."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]
