"""The page-side half of the submit guard, injected before any page script runs (every frame).

It disarms every way a page can send data on its own: form ``submit``/``requestSubmit`` and the submit
event (captured at the window, first, and cancelled), ``sendBeacon``, ``WebSocket``, ``EventSource`` and
``window.open``.  The properties are redefined non-writable and non-configurable so page scripts cannot
put the originals back.  Network-level interception (see ``browser.py``) is the backstop for anything
this misses (e.g. a pristine prototype taken from a fresh iframe).
"""

_GUARD_TEMPLATE = r"""
(() => {
  const report = (kind) => {
    try { if (typeof window.__jobctrlBlocked === 'function') window.__jobctrlBlocked(kind); } catch (e) {}
  };
  const pin = (obj, name, value) => {
    try { Object.defineProperty(obj, name, { value, writable: false, configurable: false }); } catch (e) {}
  };
  pin(HTMLFormElement.prototype, 'submit', function () { report('form_submit'); });
  pin(HTMLFormElement.prototype, 'requestSubmit', function () { report('form_request_submit'); });
  /*SUBMIT_EVENT_GUARD*/
  const beacon = function () { report('send_beacon'); return false; };
  pin(Navigator.prototype, 'sendBeacon', beacon);
  pin(navigator, 'sendBeacon', beacon);
  const refuse = (kind) => function () {
    report(kind);
    throw new DOMException('blocked by JobCtrl apply guard', 'SecurityError');
  };
  pin(window, 'WebSocket', refuse('websocket'));
  pin(window, 'EventSource', refuse('event_source'));
  pin(window, 'open', function () { report('window_open'); return null; });
})();
"""

_SUBMIT_EVENT_GUARD = r"""window.addEventListener('submit', (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
    report('submit_event');
  }, true);"""

GUARD_JS = _GUARD_TEMPLATE.replace("/*SUBMIT_EVENT_GUARD*/", _SUBMIT_EVENT_GUARD)
#: A live run on an allowlisted site (ADR 0280): the submit event is left alone so the driver's one
#: click on the submit button can submit natively; ``submit``/``requestSubmit`` stay disarmed and the
#: network guard still refuses every non-GET request until the intent is committed, then lets one by.
SUBMITTABLE_GUARD_JS = _GUARD_TEMPLATE.replace("/*SUBMIT_EVENT_GUARD*/", "")

CLASSIFY_JS = r"""
() => {
  const label = (el) => {
    const parts = [el.name, el.id, el.getAttribute('autocomplete'), el.placeholder];
    parts.push(el.getAttribute('aria-label'));
    if (el.id) {
      const l = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
      if (l) parts.push(l.textContent);
    }
    const wrap = el.closest('label');
    if (wrap) parts.push(wrap.textContent);
    return parts.filter(Boolean).join(' ').toLowerCase();
  };
  const kinds = [];
  const taken = new Set();
  for (const el of document.querySelectorAll('input, textarea')) {
    const type = (el.getAttribute('type') || (el.tagName === 'TEXTAREA' ? 'textarea' : 'text')).toLowerCase();
    if (['hidden', 'submit', 'button', 'checkbox', 'radio', 'reset', 'image'].includes(type)) continue;
    const d = label(el);
    let kind = null;
    if (type === 'file') kind = /cover/.test(d) ? null : (/resume|cv|curriculum/.test(d) ? 'resume' : null);
    else if (type === 'textarea') kind = /cover/.test(d) ? 'cover_letter' : null;
    else if (type === 'email' || /e-?mail/.test(d)) kind = 'email';
    else if (type === 'tel' || /phone|mobile|tel/.test(d)) kind = 'phone';
    else if (/first|given/.test(d)) kind = 'first_name';
    else if (/last|surname|family/.test(d)) kind = 'last_name';
    else if (/name/.test(d)) kind = 'full_name';
    if (kind && !taken.has(kind)) {
      taken.add(kind);
      el.setAttribute('data-jobctrl-field', kind);
      kinds.push(kind);
    }
  }
  return kinds;
}
"""

CHALLENGE_JS = r"""
() => {
  const found = (sels) => sels.some((s) => document.querySelector(s));
  if (found(['iframe[src*="hcaptcha.com"]', '.h-captcha', '[data-hcaptcha-widget-id]'])) return 'hcaptcha';
  if (found(['iframe[src*="challenges.cloudflare.com"]', '.cf-turnstile'])) return 'turnstile';
  if (found(['iframe[src*="recaptcha"]', '.g-recaptcha', '[data-sitekey]', '#captcha'])) return 'recaptcha';
  return null;
}
"""
