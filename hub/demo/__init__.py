"""Layer 9 — `luza demo`: a virtual table played through a private broker and the hub, refereed by a script
through the panel's REST API (web mode) or printed in the terminal."""
