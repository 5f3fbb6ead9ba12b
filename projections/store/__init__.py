"""The event store: eventsourcing's application and recorders, the msgspec mapper, the hash chain, verification."""
