Feature: Projection coverage is ready only while its proof still holds
  The recovery checkpoint of a Discover execution says "ready" only when the membership and
  pipeline-step key sets it expects equal the durable rows, and every read checks that again.

  Background:
    Given a Discover execution that is "succeeded"
    And 3 observed jobs "j" that are planned
    And the membership is closed

  Scenario: Matching key sets are published as ready
    When the reconciler verifies a native checkpoint of what is persisted
    And the operations snapshot is read
    Then the checkpoint writer published "ready"
    And projectionCoverage.status is "ready"
    And projectionCoverage.verified is true
    And projectionCoverage.persistedMembers is 3

  Scenario: A tampered membership row takes ready away
    Given the reconciler verified a native checkpoint of what is persisted
    When someone rewrites the membership row of job "j1" to "forged"
    And the operations snapshot is read
    Then projectionCoverage.status is "recovering"
    And projectionCoverage.errorCode is "proof_mismatch"
    And the "score" ETA in current_execution is "unavailable"

  Scenario: Equal row counts with different keys never promote to ready
    When the reconciler expects job "missing" instead of job "j2"
    And the operations snapshot is read
    Then the checkpoint writer published "recovering"
    And projectionCoverage.status is "recovering"
    And projectionCoverage.errorCode is "key_set_mismatch"

  Scenario: The native proof comes from the event log and waits for the projection
    Given the projections have caught up
    And job "late" is linked to the execution but not yet projected
    When the reconciler verifies the execution against the event log
    Then the checkpoint writer published "recovering"

  Scenario: A caught-up projection matches the event log
    Given the projections have caught up
    When the reconciler verifies the execution against the event log
    Then the checkpoint writer published "ready"
