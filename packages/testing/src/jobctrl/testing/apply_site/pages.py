"""Application pages for the local test site.  Each hostile page tries one way to send on its own."""

from __future__ import annotations

FORM = """
<form id="apply" method="post" action="/submit">
  <label for="fn">Full name</label><input id="fn" name="applicant">
  <label>Email <input type="email" name="mail"></label>
  <label>Phone <input type="tel" name="phone"></label>
  <label>Resume / CV <input type="file" name="resume"></label>
  <label>Cover letter <textarea name="cover"></textarea></label>
  <button type="submit">Submit application</button>
</form>
"""

PARTIAL_FORM = """
<form id="apply" method="post" action="/submit">
  <label>Email <input type="email" name="mail"></label>
  <label>Resume <input type="file" name="resume"></label>
  <button type="submit">Send</button>
</form>
"""

HOSTILE_SCRIPTS: dict[str, str] = {
    "auto-submit on load": """
        document.getElementById('apply').submit();
        window.addEventListener('load', () => document.getElementById('apply').submit());""",
    "auto-submit on a timer": """
        setTimeout(() => document.forms[0].submit(), 100);
        setInterval(() => document.querySelector('button').click(), 80);""",
    "requestSubmit": """
        setTimeout(() => document.forms[0].requestSubmit(), 100);
        window.addEventListener('load', () => document.forms[0].requestSubmit());""",
    "JS navigation": """
        setTimeout(() => { location.href = '/elsewhere?applicant=' + encodeURIComponent(
          document.querySelector('[name=applicant]').value); }, 150);
        window.addEventListener('load', () => location.assign('/elsewhere'));""",
    "meta refresh": "",
    "sendBeacon": """
        navigator.sendBeacon('/beacon', 'hello');
        Navigator.prototype.sendBeacon.call(navigator, '/beacon', 'again');
        window.addEventListener('pagehide', () => navigator.sendBeacon('/beacon', 'bye'));
        setTimeout(() => navigator.sendBeacon('/beacon', document.forms[0].mail.value), 150);""",
    "fetch and XHR POST": """
        fetch('/submit', {method: 'POST', body: 'x'}).catch(() => {});
        fetch('/submit', {method: 'POST', body: 'k', keepalive: true}).catch(() => {});
        const x = new XMLHttpRequest(); x.open('POST', '/submit'); x.send('x');
        setTimeout(() => fetch('/submit', {method: 'PUT', body: 'late'}).catch(() => {}), 150);""",
    "WebSocket": """
        try { new WebSocket('ws://' + location.host + '/ws'); } catch (e) {}
        const f = document.createElement('iframe'); document.body.appendChild(f);
        try { new f.contentWindow.WebSocket('ws://' + location.host + '/ws'); } catch (e) {}""",
    "pristine prototypes from an iframe": """
        const f = document.createElement('iframe'); document.body.appendChild(f);
        const w = f.contentWindow;
        setTimeout(() => {
          try { w.HTMLFormElement.prototype.submit.call(document.forms[0]); } catch (e) {}
          try { w.navigator.sendBeacon('/beacon', 'iframe'); } catch (e) {}
          try { w.fetch('/submit', {method: 'POST', body: 'iframe'}); } catch (e) {}
        }, 100);""",
    "submit when a field changes": """
        for (const el of document.querySelectorAll('input, textarea')) {
          el.addEventListener('input', () => document.forms[0].submit());
          el.addEventListener('change', () => { document.forms[0].requestSubmit();
            fetch('/submit', {method: 'POST', body: el.value}).catch(() => {}); });
        }""",
    "popup window": """
        window.open('/elsewhere', '_blank');
        setTimeout(() => { const a = document.createElement('a'); a.href = '/elsewhere'; a.target = '_blank';
          document.body.appendChild(a); a.click(); }, 100);""",
}

CHALLENGES: dict[str, str] = {
    "hcaptcha": '<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>',
    "recaptcha": '<iframe src="https://www.google.com/recaptcha/api2/anchor?k=test" width="300"></iframe>',
    "turnstile": '<div class="cf-turnstile" data-sitekey="1x00000000000000000000AA"></div>',
}


def slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def page(body: str, *, script: str = "", head: str = "") -> str:
    tag = f"<script>{script}</script>" if script else ""
    return (
        f"<!doctype html><html><head><title>Apply</title>{head}"
        f'<link rel="stylesheet" href="/style.css"></head><body>{body}{tag}</body></html>'
    )


def site_pages() -> dict[str, str]:
    pages = {
        "/jobs/honest": page(FORM),
        "/jobs/partial": page(PARTIAL_FORM),
        "/jobs/no-form": page("<p>Closed</p>"),
        "/jobs/drops-the-answer": page(FORM.replace('action="/submit"', 'action="/submit-dropped"')),
    }
    for name, script in HOSTILE_SCRIPTS.items():
        head = '<meta http-equiv="refresh" content="0;url=/elsewhere">' if name == "meta refresh" else ""
        pages[f"/jobs/hostile/{slug(name)}"] = page(FORM, script=script, head=head)
    for widget, markup in CHALLENGES.items():
        pages[f"/jobs/challenge/{widget}"] = page(FORM + markup)
    pages["/jobs/late-challenge"] = page(
        FORM,
        script="document.querySelector('[name=mail]').addEventListener('input', () => {"
        " const d = document.createElement('div'); d.className = 'g-recaptcha';"
        " document.body.appendChild(d); });",
    )
    return pages
