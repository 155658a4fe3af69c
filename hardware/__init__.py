"""Adapters between the pure core and the world: buttons, displays, serial, boards."""
