"""Pyramid Table Companion: scorekeeper and referee for Looney Pyramid games.

The pure core: engines, journal, records, screens and the app loop. It
imports no hardware library; adapters live in the top-level ``hardware``
package.
"""
__version__ = "0.1.0"
