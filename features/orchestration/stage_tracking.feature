Feature: Stage tracking for context activities
  An activity records its job's stage through the tracker: a step begins (settling what an earlier
  attempt of the same workflow left running), then succeeds or fails.  A stage that already
  succeeded is never begun again; a failed one is started again when the workflow asks.

  Background:
    Given job "job-1" and workflow "prep-k1" run "r1"

  Scenario: A step that begins and succeeds records its start and completion with its owner
    When attempt 1 begins "score"
    And attempt 1 succeeds "score"
    Then "score" is Succeeded
    And the stage stream has events StageStarted, StageCompleted
    And every stage event names workflow "prep-k1" run "r1"

  Scenario: A stage that already succeeded is reused, not begun again
    Given attempt 1 began and succeeded "score"
    When attempt 1 begins "score"
    Then the tracker answers that the stage is done
    And the stage stream has events StageStarted, StageCompleted

  Scenario: A retry settles the row its earlier attempt left running, then starts it again
    Given attempt 1 began "score"
    When attempt 2 begins "score"
    Then "score" is Running at attempt 2
    And the stage stream has events StageStarted, StageFailed, StageReset, StageStarted

  Scenario: A failed stage is started again when the workflow asks
    Given attempt 1 began "enrich"
    And attempt 1 fails "enrich" with "source_unavailable"
    When attempt 2 begins "enrich"
    Then "enrich" is Running at attempt 2
    And the stage stream has events StageStarted, StageFailed, StageReset, StageStarted
