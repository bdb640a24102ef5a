Feature: A dry run never submits, whatever the page tries
  A dry run fills the real application page in the system Chromium and records what it could fill.
  The page may try to send the application on its own; the local job site counts every POST, beacon,
  WebSocket upgrade and navigation target, and must see none of them.

  Background:
    Given a prepared job "job-1" at "Acme" for "Data Engineer"

  Scenario Outline: A hostile page sends nothing during a dry run
    Given job "job-1" is reviewed at "<page>" on the local job site
    When a dry run of "job-1" fills the page with the real browser
    Then the last run of "job-1" is dry run completed
    And the last run of "job-1" recorded full coverage
    And the job site received no submission

    Examples:
      | page                                            |
      | /jobs/honest                                    |
      | /jobs/hostile/auto-submit-on-load               |
      | /jobs/hostile/auto-submit-on-a-timer            |
      | /jobs/hostile/requestsubmit                     |
      | /jobs/hostile/js-navigation                     |
      | /jobs/hostile/meta-refresh                      |
      | /jobs/hostile/sendbeacon                        |
      | /jobs/hostile/fetch-and-xhr-post                |
      | /jobs/hostile/websocket                         |
      | /jobs/hostile/pristine-prototypes-from-an-iframe |
      | /jobs/hostile/submit-when-a-field-changes       |
      | /jobs/hostile/popup-window                      |

  Scenario: A form missing fields gives partial coverage
    Given job "job-1" is reviewed at "/jobs/partial" on the local job site
    When a dry run of "job-1" fills the page with the real browser
    Then the last run of "job-1" recorded partial coverage
    And the job site received no submission

  Scenario Outline: A CAPTCHA or third-party challenge stops the run
    Given job "job-1" is reviewed at "<page>" on the local job site
    When a dry run of "job-1" fills the page with the real browser
    Then the last run of "job-1" is blocked
    And the log holds 1 ApplySubmissionBlocked event
    And the job site received no submission

    Examples:
      | page                       |
      | /jobs/challenge/hcaptcha   |
      | /jobs/challenge/recaptcha  |
      | /jobs/challenge/turnstile  |
      | /jobs/late-challenge       |

  Scenario: A driver that claims it applied during a dry run is a violation
    When a dry run of "job-1" whose driver reports the application as submitted
    Then it fails with the code "dry_run_violation"
    And the last run of "job-1" is failed
    And the log holds 0 ApplicationSubmitted events

  Scenario: A live browser run stops for the human's final submit
    Given job "job-1" is reviewed at "/jobs/hostile/auto-submit-on-load" on the local job site
    And a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    And a live run of "job-1" was claimed
    When the live run of "job-1" fills the page with the real browser
    Then the last run of "job-1" is blocked
    And the log holds 1 ApplySubmissionBlocked event
    And the log holds 0 ApplySubmitIntended events
    And the job site received no submission

  Scenario Outline: The job site does see what a hostile page sends when nothing guards it
    When the page "<page>" is opened in a plain browser without any guard
    Then the job site counted the submission

    Examples:
      | page                                |
      | /jobs/hostile/auto-submit-on-load   |
      | /jobs/hostile/sendbeacon            |
      | /jobs/hostile/fetch-and-xhr-post    |
      | /jobs/hostile/websocket             |
      | /jobs/hostile/js-navigation         |
