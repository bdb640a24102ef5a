Feature: Stage attempts, exhaustion and dependencies
  Each stage has an attempt limit (enrich 5, score 3, tailor 5, cover 5, apply 3).  A failed or
  exhausted Tailor blocks Cover and Apply that have not started, in the same transaction as the
  failure; a later Tailor success clears exactly those blocks.

  Background:
    Given job "j1" has no stage history

  Scenario: Starting a pending stage counts an attempt
    When the score stage of "j1" is started
    Then the score stage of "j1" is Running with 1 attempt

  Scenario: Score is exhausted at its third failure
    Given the score stage of "j1" failed 2 times
    When the score stage of "j1" is started and fails
    Then the score stage of "j1" is Exhausted with 3 attempts
    And the last events of "j1" are StageStarted, StageFailed, StageExhausted

  Scenario: Resetting an exhausted stage starts again from zero attempts
    Given the score stage of "j1" failed 3 times
    When the score stage of "j1" is reset
    Then the score stage of "j1" is Pending with 0 attempts

  Scenario: A Tailor failure blocks pending Cover and Apply in one commit
    When the tailor stage of "j1" is started and fails
    Then the cover stage of "j1" is blocked by tailor with "UPSTREAM_TAILOR_FAILED"
    And the apply stage of "j1" is blocked by tailor with "UPSTREAM_TAILOR_FAILED"
    And the failure and both blocks were appended in one transaction

  Scenario: An exhausted Tailor re-codes its blocks
    Given the tailor stage of "j1" failed 4 times
    When the tailor stage of "j1" is started and fails
    Then the tailor stage of "j1" is Exhausted with 5 attempts
    And the cover stage of "j1" is blocked by tailor with "UPSTREAM_TAILOR_EXHAUSTED"

  Scenario: A Tailor success unblocks only Tailor-owned blocks
    Given the apply stage of "j1" was skipped
    And the tailor stage of "j1" failed 1 times
    And the cover stage of "j1" is blocked by tailor with "UPSTREAM_TAILOR_FAILED"
    When the tailor stage of "j1" is started and completes
    Then the cover stage of "j1" is Pending with 0 attempts
    And the apply stage of "j1" is Skipped

  Scenario: A running Cover is never blocked by Tailor
    Given the cover stage of "j1" is running
    When the tailor stage of "j1" is started and fails
    Then the cover stage of "j1" is Running with 1 attempt

  Scenario: A rejected write appends nothing
    Given the score stage of "j1" failed 3 times
    When the score stage of "j1" is started
    Then the write is rejected as TransitionRejected from Exhausted by "Start"
    And no event was appended for "j1"
