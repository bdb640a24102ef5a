Feature: A browser form is submitted by JobCtrl only on an allowlisted site
  A live browser run fills the application form and stops for the person's own submit, unless the
  site's host is on the explicit allowlist in the settings (browser_submit_allowlist).  There, an
  approved run with dry-run evidence records its submit intent, then clicks submit exactly once;
  the local job site counts every submission it receives.

  Background:
    Given a prepared job "job-1" at "Acme" for "Data Engineer"
    And job "job-1" is reviewed at "/jobs/honest" on the local job site
    And a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"

  Scenario: An allowlisted site's form is submitted once, even when the apply activity is retried
    Given the browser-submit allowlist holds "127.0.0.1"
    When the live apply activity of "job-1" runs with the real browser
    And the apply activity of "job-1" is retried
    And the apply activity of "job-1" is retried
    Then the job site received 1 submission
    And the submit intent was in the log before the job site received the submission
    And the last run of "job-1" is succeeded
    And the log holds 1 ApplySubmitIntended event
    And the log holds 1 ApplicationSubmitted event

  Scenario: A site that takes the submission but never answers needs verification, never a second click
    Given the browser-submit allowlist holds "127.0.0.1"
    And job "job-1" moved to "/jobs/drops-the-answer" on the local job site, reviewed and approved again
    When the live apply activity of "job-1" runs with the real browser
    Then it fails with the code "browser_submit_outcome_ambiguous"
    And the last run of "job-1" needs verification with "APPLY_NEEDS_VERIFICATION"
    When the apply activity of "job-1" is retried
    Then the job site received 1 submission
    And the log holds 0 ApplicationSubmitted events

  Scenario: A site off the allowlist gets no submission: the person finishes it
    Given the browser-submit allowlist holds "jobs.example.org"
    When the live apply activity of "job-1" runs with the real browser
    Then the job site received 0 submissions
    And the last run of "job-1" is blocked
    And the last run of "job-1" left a hand-off for manual completion
    And the log holds 0 ApplySubmitIntended events

  Scenario: With no allowlist a live run hands off, as before
    When the live apply activity of "job-1" runs with the real browser
    Then the job site received 0 submissions
    And the last run of "job-1" left a hand-off for manual completion

  Scenario: An allowlisted site's incomplete form is left for the person
    Given the browser-submit allowlist holds "127.0.0.1"
    And job "job-1" moved to "/jobs/partial" on the local job site, reviewed and approved again
    When the live apply activity of "job-1" runs with the real browser
    Then the job site received 0 submissions
    And the last run of "job-1" left a hand-off for manual completion
    And the log holds 0 ApplySubmitIntended events
