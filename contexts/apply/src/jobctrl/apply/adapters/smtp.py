"""``EmailSenderPort`` over SMTP (smtplib).

The message is built from the approved candidate only: one ``To`` address (no Cc/Bcc, and the envelope
recipient list is exactly that address) and one attachment.  ``send`` makes one SMTP transaction and
never retries; whether an exception happened before or after the server accepted the mail is unknown
to the caller, which is why the use case treats any exception as an ambiguous outcome.
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

from jobctrl.apply.ports import OutgoingEmail


class SmtpEmailSender:
    def __init__(
        self, host: str, port: int, *, sender: str, timeout_s: float = 30.0, starttls: bool = False
    ) -> None:
        self._host = host
        self._port = port
        self._sender = sender
        self._timeout_s = timeout_s
        self._starttls = starttls

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
                smtp.starttls()
            smtp.send_message(mail, from_addr=self._sender, to_addrs=[message.recipient])
