"""Over-the-air updates of the nodes, the hub's side: releases (builds and config changes), the manifests
signed with each node's key, the push (only when no match is in play on the node's table) and the go to swap.

The node's side is firmware/ota.py and firmware/updater.py; the wire is luza_wire/ota.py; the states
and failure cases are in docs/firmware.md ("Updates"), the operator's steps in docs/install.md.
"""
