"""The scoresheet as PDF, rendered from the HTML page by WeasyPrint (a base dependency; its system
libraries are installed by scripts/setup and the Pi installer)."""

from __future__ import annotations

from datetime import UTC, tzinfo

from hub.export import html
from hub.export.document import ExportDoc
from hub.export.model import ExportError

INSTALL_EN = (
    "PDF export needs WeasyPrint: pip install weasyprint (system libraries: apt install libpango-1.0-0 "
    "libpangoft2-1.0-0 fonts-dejavu-core; ./scripts/setup --dev installs them)"
)
INSTALL_RU = (
    "для PDF нужен WeasyPrint: pip install weasyprint (системные библиотеки: apt install "
    "libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core; их ставит ./scripts/setup --dev)"
)


def available() -> bool:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):  # OSError: the package is there but pango is not
        return False
    return True


def render(doc: ExportDoc, lang: str = "ru", tz: tzinfo = UTC, key: str | None = None) -> bytes:
    """The PDF bytes; ExportError saying how to install WeasyPrint if it is missing."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError):
        raise ExportError(INSTALL_EN, INSTALL_RU, "unavailable") from None
    data = HTML(string=html.render(doc, lang, tz, key)).write_pdf()
    assert isinstance(data, bytes)
    return data
