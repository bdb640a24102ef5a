Feature: Ownership of running Score, Tailor and Cover rows
  Every running write records its owner: the workflow id, the Temporal run id and the activity
  attempt.  A write from a superseded owner is refused and appends nothing.  A retry reconciles
  the rows its workflow still claims before doing new work.

  Background:
    Given job "j1" has no stage history

  Scenario: The owner is recorded in the stage state and in the event metadata
    When the tailor stage of "j1" is started by "wf-1" run "r1" attempt 1
    Then the tailor stage of "j1" is owned by "wf-1" run "r1" attempt 1
    And the last event of "j1" was written by "wf-1" run "r1" attempt 1

  Scenario: A superseded attempt cannot complete the row
    Given the tailor stage of "j1" was started by "wf-1" run "r1" attempt 1
    And attempt 2 of "wf-1" run "r1" reconciled its rows with nothing committed
    And the tailor stage of "j1" was started by "wf-1" run "r1" attempt 2
    When attempt 1 of "wf-1" run "r1" completes the tailor stage of "j1"
    Then the write is refused as OwnershipLost
    And no event was appended for "j1"

  Scenario: A result committed after the baseline is accepted without another model call
    Given the score stage of "j1" was started by "wf-1" run "r1" attempt 1 with baseline 4
    When attempt 2 of "wf-1" run "r1" reconciles its rows and score version 5 is committed
    Then the score row was accepted
    And the score stage of "j1" is Succeeded with 1 attempt

  Scenario: A result no newer than the baseline makes the row explicitly retryable
    Given the score stage of "j1" was started by "wf-1" run "r1" attempt 1 with baseline 4
    When attempt 2 of "wf-1" run "r1" reconciles its rows and score version 4 is committed
    Then the score row became retryable
    And the score stage of "j1" is Pending with 1 attempt
    And the last events of "j1" are StageFailed, StageReset

  Scenario: A Score write without an owner is refused
    When the score stage of "j1" is started without an owner
    Then the write is refused as OwnerRequired

  Scenario: Reconciling leaves rows of other workflows alone
    Given the cover stage of "j1" was started by "wf-other" run "r7" attempt 1
    When attempt 2 of "wf-1" run "r1" reconciles its rows and score version 5 is committed
    Then the cover stage of "j1" is owned by "wf-other" run "r7" attempt 1
