"""HTML/CSS templates (Jinja2) and the HTML → PDF port with its Chromium adapter."""
