"""``EmailSenderPort`` over SMTP (smtplib).

The message is built from the approved candidate only: one ``To`` address (no Cc/Bcc, and the envelope
recipient list is exactly that address) and one attachment.  ``send`` makes one SMTP transaction and
never retries; whether an exception happened before or after the server accepted the mail is unknown
to the caller, which is why the use case treats any exception as an ambiguous outcome.
With ``starttls`` the session is upgraded before anything else is said (a server that does not offer
it fails the send before any mail is handed over); with ``username`` it logs in after the upgrade.
The password is handed in by the composition root, which reads it from an environment variable; it
is never stored in settings or events.
"""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from jobctrl.apply.ports import OutgoingEmail


class SmtpEmailSender:
    def __init__(
        self,
        host: str,
        port: int,
        *,
        sender: str,
        timeout_s: float = 30.0,
        starttls: bool = False,
        username: str | None = None,
        password: str | None = None,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        self._host = host
        self._port = port
        self._sender = sender
        self._timeout_s = timeout_s
        self._starttls = starttls
        self._username = username
        self._password = password
        self._tls_context = tls_context

    def build(self, message: OutgoingEmail) -> EmailMessage:
        mail = EmailMessage()
        mail["From"] = self._sender
        mail["To"] = message.recipient
        mail["Subject"] = message.subject
        mail.set_content(message.body)
        mail.add_attachment(
            message.attachment, maintype="application", subtype="pdf", filename=message.attachment_name
        )
        return mail

    def send(self, message: OutgoingEmail) -> None:
        mail = self.build(message)
        with smtplib.SMTP(self._host, self._port, timeout=self._timeout_s) as smtp:
            if self._starttls:
                smtp.starttls(context=self._tls_context or ssl.create_default_context())
            if self._username:
                smtp.login(self._username, self._password or "")
            smtp.send_message(mail, from_addr=self._sender, to_addrs=[message.recipient])
