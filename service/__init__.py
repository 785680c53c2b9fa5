"""The service layer: the eventsourcing application, its use cases, storage and keys."""
