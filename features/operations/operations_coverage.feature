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

  Scenario: A rewritten membership row is found by the deep check and restored from the log
    Given the reconciler verified a native checkpoint of what is persisted
    When someone rewrites the membership row of job "j1" to "forged"
    Then the deep projection check finds "discovery_executions" broken by "key_digest"
    When the projections heal with the deep check
    And the operations snapshot is read
    Then projectionCoverage.status is "ready"
    And job "j1" is a member of the execution again

  Scenario: A proof that no longer matches the kept digests is not ready
    Given the reconciler verified a native checkpoint of what is persisted
    When someone changes the checkpoint's digest
    And the operations snapshot is read
    Then projectionCoverage.status is "recovering"
    And projectionCoverage.errorCode is "proof_mismatch"
    And the "score" ETA in current_execution is "unavailable"

  Scenario: A later key of a verified execution advances its proof in the same transaction
    Given the reconciler verified a native checkpoint of what is persisted
    And job "late" is linked to the execution but not yet projected
    When the projections catch up
    And the operations snapshot is read
    Then projectionCoverage.status is "ready"
    And projectionCoverage.persistedMembers is 4
    And projectionCoverage.expectedMembers is 4

  Scenario: The runtime publishes ready for a clean run once its projections are folded
    Given the projections have caught up
    When the runtime writes the coverage checkpoints
    And the operations snapshot is read
    Then the runtime published "ready"
    And projectionCoverage.status is "ready"
    And the overall ETA is not withheld as "coverage_not_ready"

  Scenario: The runtime retries a history it cannot read as exact evidence
    Given the projections have caught up
    And an undecodable pipeline-step event of the execution is in the log
    When the runtime writes the coverage checkpoints
    And the operations snapshot is read
    Then the runtime published "retrying"
    And projectionCoverage.status is "retrying"
    And projectionCoverage.errorCode is "undecodable_history"

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

  Scenario: A failed execution is verified as incomplete, with its exact partial sets
    Given a Discover execution "discover-failed" that is "failed" with 2 observed jobs and a closed membership
    And the projections have caught up
    When the runtime writes the coverage checkpoints
    Then the runtime published "incomplete" for "discover-failed"
