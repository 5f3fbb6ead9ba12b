"""The event store: the application and its catalog, its backends (``backends/``: SQLite, PostgreSQL), the errors it
raises, the msgspec mapper, the hash chain, verification, and the one module that names eventsourcing's private names."""
