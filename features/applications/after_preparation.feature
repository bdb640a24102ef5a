Feature: After preparation, one job goes from review to an interview
  A prepared job is reviewed on the dashboard, rehearsed by a dry run, sent once by email through the
  owned SMTP sender, and its outcome settles its follow-up.  The worker is a real `jobctrl worker`
  process on the Temporal dev server; the SMTP server is a local one that counts what it accepted.

  Background:
    Given a local SMTP server with STARTTLS and a login that counts accepted messages
    And a JobCtrl home whose settings send email applications through that server
    And a running jobctrl worker
    And the job "globex-platform" at "Globex" for "Platform Engineer", applied to by email at "careers@globex.example", prepared by the worker
    And the API serving the dashboard

  Scenario: Reviewed in the dashboard, rehearsed, sent once, interview, follow-up settled
    When the user opens the review page in Chromium
    Then the page shows the job with its scores, its resume and cover letter, and why it cannot be sent yet
    When the user clicks "Approve dry run"
    Then the dry run completes and records the email to "careers@globex.example" without sending anything
    When the user reloads the review page and clicks "Approve"
    Then the SMTP server has accepted exactly 1 message, to "careers@globex.example", with the resume attached
    And the application's follow-up falls due 7 days after it was sent
    When the user records the outcome "interview"
    Then the application's follow-up is no longer due
    And the pipeline shows the job under "interview"
    And every read model equals a clean rebuild of the log

  Scenario: The worker is killed between the submit intent and the send
    Given the SMTP server holds the next send before any message is handed over
    When the user approves a dry run and then the application through the API
    And the worker is killed with SIGKILL once the submit intent is recorded and the send has begun
    Then the SMTP server has accepted 0 messages
    When a new jobctrl worker starts and the killed apply run has ended
    Then the SMTP server has accepted 0 messages
    And the application is left for recovery: a submit intent without a result, marked needs_verification
    And a new live claim of the job is refused as "needs_verification"
