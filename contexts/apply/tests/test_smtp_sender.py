"""The owned SMTP sender against a real local SMTP server: STARTTLS, AUTH, one message, one recipient."""

from __future__ import annotations

import smtplib
import ssl
from email import message_from_bytes
from email import policy as email_policy
from pathlib import Path

import pytest

from jobctrl.apply.adapters.smtp import SmtpEmailSender
from jobctrl.apply.ports import OutgoingEmail
from jobctrl.testing.smtp_server import counting_smtp_server

MAIL = OutgoingEmail(
    recipient="jobs@globex.example", subject="Application", body="Dear team", attachment_name="resume.pdf",
    attachment=b"%PDF-1.4 resume",
)  # fmt: skip


def test_starttls_then_login_then_exactly_one_message(tmp_path: Path) -> None:
    with counting_smtp_server(tmp_path, username="ada", password="s3cret") as server:
        assert server.port > 0 and server.ca_file is not None
        sender = SmtpEmailSender(
            "127.0.0.1", server.port, sender="ada@example.org", starttls=True, username="ada",
            password="s3cret", tls_context=ssl.create_default_context(cafile=str(server.ca_file)),
        )  # fmt: skip
        sender.send(MAIL)
        assert server.logins == ["ada"]
        assert len(server.accepted) == 1
        envelope = server.accepted[0]
        assert envelope.rcpt_tos == ["jobs@globex.example"]
        parsed = message_from_bytes(envelope.original_content or b"", policy=email_policy.default)
        attachments = [p.get_filename() for p in parsed.iter_attachments()]
        assert attachments == ["resume.pdf"]


def test_a_wrong_password_is_refused_and_nothing_is_accepted(tmp_path: Path) -> None:
    with counting_smtp_server(tmp_path, username="ada", password="s3cret") as server:
        sender = SmtpEmailSender(
            "127.0.0.1", server.port, sender="ada@example.org", starttls=True, username="ada",
            password="wrong", tls_context=ssl.create_default_context(cafile=str(server.ca_file)),
        )  # fmt: skip
        with pytest.raises(smtplib.SMTPAuthenticationError):
            sender.send(MAIL)
        assert server.accepted == []


def test_without_starttls_a_server_that_requires_it_accepts_nothing(tmp_path: Path) -> None:
    with counting_smtp_server(tmp_path) as server:
        sender = SmtpEmailSender("127.0.0.1", server.port, sender="ada@example.org", starttls=False)
        with pytest.raises(smtplib.SMTPException):
            sender.send(MAIL)
        assert server.accepted == []
