"""Luza's pure rules engine for Russian pyramid, the match-log format and the wire protocol.

Imports nothing of the project and does no I/O.
"""
