"""Benchmarks of the service: ingest, replay, verification and HTTP throughput."""
