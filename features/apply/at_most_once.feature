Feature: At most once
  A job is applied to at most once.  One attempt runs at a time; the submit intent is recorded
  before anything is sent; a send whose outcome is unknown needs the user's verification and is
  never repeated automatically.

  Background:
    Given a prepared job "job-1" at "Acme" for "Data Engineer"
    And a dry run of "job-1" found the email candidate "jobs@acme.example" with attachment "art-1"
    And the user approved emailing "job-1" to "jobs@acme.example" with attachment "art-1"

  Scenario: The approved email goes out once, to the approved recipient, with the approved attachment
    When the email application of "job-1" is sent
    Then the last run of "job-1" is succeeded
    And the SMTP server received 1 message to "jobs@acme.example" carrying "art-1"
    And the intent was in the log before the message was handed to the sender
    And the log holds 1 ApplySubmitIntended event
    And the log holds 1 ApplicationSubmitted event

  Scenario: A sent application is not sent again
    When the email application of "job-1" is sent
    And the email application of "job-1" is sent
    Then it fails with the code "apply_run_not_active"
    And the SMTP server received 1 message to "jobs@acme.example" carrying "art-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "already_applied"

  Scenario: A sender failure after the intent needs verification and is never resent
    When the SMTP sender fails during the send
    And the email application of "job-1" is sent
    Then it fails with the code "email_send_outcome_ambiguous"
    And the last run of "job-1" needs verification with "APPLY_NEEDS_VERIFICATION"
    When the email application of "job-1" is sent
    Then it fails with the code "apply_run_not_active"
    And the sender was called 1 time
    When a live run of "job-1" is claimed
    Then the claim is refused with "needs_verification"

  Scenario: An intent with no result becomes needs verification on recovery
    Given a live email run of "job-1" recorded its submit intent and then the worker crashed
    When recovery runs for "job-1"
    Then the last run of "job-1" needs verification with "APPLY_NEEDS_VERIFICATION"
    And the log holds 0 ApplicationSubmitted events
    And the log holds 0 ApplicationFailed events
    When recovery runs for "job-1"
    Then the recovery changed nothing
    When a live run of "job-1" is claimed
    Then the claim is refused with "needs_verification"
    And the SMTP server received 0 messages to "jobs@acme.example" carrying "art-1"

  Scenario: A run the user verifies as sent counts as applied
    Given a live email run of "job-1" recorded its submit intent and then the worker crashed
    And recovery ran for "job-1"
    When the user verifies that the application of "job-1" went out
    Then the last run of "job-1" is succeeded
    When a live run of "job-1" is claimed
    Then the claim is refused with "already_applied"
    When the user verifies that the application of "job-1" did not go out
    Then the settlement is refused with "no_run_needs_verification" and nothing is written

  Scenario: A run verified as not sent may be claimed again
    Given a live email run of "job-1" recorded its submit intent and then the worker crashed
    And recovery ran for "job-1"
    When the user verifies that the application of "job-1" did not go out
    Then the last run of "job-1" is failed
    When a live run of "job-1" is claimed
    Then the claim succeeds

  Scenario: Nothing to settle when no run awaits verification
    When the user verifies that the application of "job-1" went out
    Then the settlement is refused with "no_run_needs_verification" and nothing is written

  Scenario: A crash before any intent sent nothing, so the run fails retryably
    Given a live run of "job-1" was claimed and its worker crashed before any submit intent
    When recovery runs for "job-1"
    Then the last run of "job-1" is failed
    When a live run of "job-1" is claimed
    Then the claim succeeds

  Scenario: Only one attempt runs at a time
    Given a live run of "job-1" was claimed
    When a live run of "job-1" is claimed
    Then the claim is refused with "apply_row_active"

  Scenario: Two racing claimers cannot both start a run
    When two workers claim a live run of "job-1" at the same time
    Then exactly one of them holds the claim

  Scenario: Three live attempts exhaust the job
    Given a live run of "job-1" was claimed and its worker crashed before any submit intent
    And recovery ran for "job-1"
    And a live run of "job-1" was claimed and its worker crashed before any submit intent
    And recovery ran for "job-1"
    And a live run of "job-1" was claimed and its worker crashed before any submit intent
    And recovery ran for "job-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "attempts_exhausted"

  Scenario Outline: A claim needs materials, a current eligible score and an open posting
    Given job "job-1" has <fact> <value>
    When a live run of "job-1" is claimed
    Then the claim is refused with "<reason>"

    Examples:
      | fact              | value        | reason               |
      | resume PDF        | missing      | resume_pdf_not_ready |
      | score currency    | stale        | score_not_current    |
      | score eligibility | ineligible   | score_not_eligible   |
      | posting           | closed       | job_closed           |

  Scenario: A batch claim needs the minimum score
    Given job "job-1" has score 6.5
    When a batch dry claim of "job-1" is made
    Then the claim is refused with "score_below_minimum"
