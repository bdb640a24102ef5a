Feature: The pipeline-eta-v1 estimate withholds numbers it cannot defend
  Durations come from successful stage runs of the last 14 days (at most 50, at least 5 per
  remaining stage). No number is given while membership is open, telemetry is stale, no worker is
  available or the LLM budget is spent.

  Background:
    Given a Discover execution that is "in_progress"
    And 4 observed jobs "j" that are planned
    And jobs "j" 0 to 3 finished "enrich" in 1000 ms
    And jobs "old" 0 to 5 finished "score" in 2000 ms

  Scenario: Everything known gives an available range
    Given the membership is closed
    And the reconciler verified a native checkpoint of what is persisted
    And a worker with 4 slots running 2 "score" activities
    When the operations snapshot is read
    Then execution.phase is "draining"
    And the "score" ETA in current_execution is "available"
    And the overall ETA is an available range

  Scenario: Open membership withholds the overall range but not the stage range
    Given the reconciler verified a native checkpoint of what is persisted
    And a worker with 4 slots running 2 "score" activities
    When the operations snapshot is read
    Then the overall ETA is "unavailable" because "membership_open"
    And the "score" ETA in current_execution is "available"

  Scenario: Stale telemetry
    Given the membership is closed
    And the reconciler verified a native checkpoint of what is persisted
    And a busy worker whose last heartbeat is 60 seconds old
    When the operations snapshot is read
    Then the overall ETA is "stale" because "telemetry_stale"

  Scenario: No worker at all
    Given the membership is closed
    And the reconciler verified a native checkpoint of what is persisted
    When the operations snapshot is read
    Then the overall ETA is "paused" because "worker_unavailable"

  Scenario: The LLM budget is at its ceiling
    Given the membership is closed
    And the reconciler verified a native checkpoint of what is persisted
    And a worker with 4 slots running 2 "score" activities
    And today's LLM spend is at the daily ceiling
    When the operations snapshot is read
    Then the overall ETA is "paused" because "budget_exceeded"

  Scenario: Fewer than five samples is still calibrating
    Given 2 observed jobs "k" that are pending
    And a worker with 4 slots running 2 "score" activities
    When the operations snapshot is read
    Then the "enrich" ETA in current_execution is "calibrating"
    And the "score" ETA in current_execution is "available"
