"""HTML/CSS templates (Jinja2) and the Chromium adapter of the HTML → PDF port (``ports.PdfRenderer``)."""
