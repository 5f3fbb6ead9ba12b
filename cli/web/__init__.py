"""The table's recorder served over HTTP (``gamelog serve``): an ASGI application on Litestar, run by uvicorn.

It is an entry point beside the command line and, like it, calls the service layer (a stored game's
``gamelog.Game``, ``gamelog.recording``, ``gamelog.listing``): no SQL, engine or rendering of its own; the pages are
static files of this package (no CDN: a table on a LAN without internet works) that read the HTTP API
(docs/serve.md).
"""
