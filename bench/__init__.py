"""Benchmarks and reliability harnesses; each prints its figures (run from the repository root)."""
