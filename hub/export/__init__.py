"""Match history and exports: the JSON evidence log (`luza-match-export`), CSV, the HTML/PDF scoresheet, and
`verify`, which re-checks an export file against the rules engine without the database it came from."""

from hub.export.document import ExportDoc
from hub.export.model import FORMAT, VERSION, ExportError, Source, build, load

__all__ = ["FORMAT", "VERSION", "ExportDoc", "ExportError", "Source", "build", "load"]
