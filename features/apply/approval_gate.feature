Feature: The approval gate
  A live apply needs the user's latest decision to be "approve submit", bound to exactly the
  materials generation, profile version and application URL they reviewed (and, for email, the
  recipient and attachment), plus qualifying dry-run evidence.  The refusal says what is missing.

  Background:
    Given a prepared job "job-1" at "Acme" for "Data Engineer"

  Scenario: A current approval with full dry-run evidence lets a live run be claimed
    Given a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    When a live run of "job-1" is claimed
    Then the claim succeeds
    And the log holds 2 ApplyRunStarted events

  Scenario: Without any decision the job awaits approval
    Given a dry run of "job-1" completed with full coverage
    When a live run of "job-1" is claimed
    Then the claim is refused with "awaiting_approval"
    And the log holds 1 ApplyRunStarted event

  Scenario Outline: A later decision replaces the approval
    Given a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    And the user <decision> "job-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "awaiting_approval"

    Examples:
      | decision            |
      | deferred            |
      | declined            |
      | reset the review of |

  Scenario Outline: An approval goes stale when what it was bound to moves
    Given a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    And job "job-1" has <fact> <value>
    When a live run of "job-1" is claimed
    Then the claim is refused with "<reason>"
    And the log holds 1 ApplyRunStarted event

    Examples:
      | fact                | value                        | reason                   |
      | materials generation | 2                           | approval_stale_materials |
      | profile version     | 2                            | approval_stale_profile   |
      | application URL     | "https://jobs.example/other" | approval_stale_url       |

  Scenario: An approval without dry-run evidence waits for a dry run
    Given the user approved submitting "job-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "awaiting_dry_run"

  Scenario: Dry-run evidence for older materials does not count
    Given a dry run of "job-1" completed with full coverage
    And job "job-1" has materials generation 2
    And the user approved submitting "job-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "awaiting_dry_run"

  Scenario: A partial dry run counts only through an override bound to that run
    Given a dry run of "job-1" completed with partial coverage
    And the user approved submitting "job-1" with the partial-coverage override of its last dry run
    When a live run of "job-1" is claimed
    Then the claim succeeds

  Scenario: A partial dry run without the override waits for a full dry run
    Given a dry run of "job-1" completed with partial coverage
    And the user approved submitting "job-1"
    When a live run of "job-1" is claimed
    Then the claim is refused with "awaiting_dry_run"

  Scenario: An override naming a run that is not partial evidence is invalid
    Given a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1" with the partial-coverage override of its last dry run
    When a live run of "job-1" is claimed
    Then the claim is refused with "override_evidence_invalid"

  Scenario: An email approval goes stale when a later dry run finds another candidate
    Given a dry run of "job-1" found the email candidate "jobs@acme.example" with attachment "art-1"
    And the user approved emailing "job-1" to "jobs@acme.example" with attachment "art-1"
    And a dry run of "job-1" found the email candidate "hr@acme.example" with attachment "art-1"
    When the email application of "job-1" is sent
    Then the claim is refused with "approval_stale_email_candidate"
    And the log holds 0 ApplySubmitIntended events

  Scenario: An approval can only name materials that are committed
    When the user approves submitting "job-1" with materials generation 2
    Then it fails with the code "invalid_review_decision"
    And the log holds 0 ApplyReviewDecisionRecorded events

  Scenario: A store that cannot be read means not approved
    Given a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    When the approval of "job-1" is read from a store that cannot be read
    Then the approval reads as "awaiting_approval"

  Scenario: Without required approval a live browser claim still never submits by itself
    Given approval is not required
    And a live run of "job-1" was claimed
    Then the claim succeeds
    And the log holds 0 ApplySubmitIntended events
