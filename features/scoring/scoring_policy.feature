Feature: Scoring policies and rescoring
  A scoring policy is versioned.  Saving changed settings records a new version and marks every score
  made under an older version stale with ScoreRescoreRequested; a rescore clears the mark.

  Background:
    Given job "job-1" was scored
    And job "job-2" was scored

  Scenario: A policy change marks every older score stale
    When the scoring policy criteria are saved as "Remote-first backend roles"
    And rescores are requested
    Then the log holds 1 ScoringPolicyUpdated event
    And job "job-1" is stale with a rescore from policy 0 to policy 1
    And job "job-2" is stale with a rescore from policy 0 to policy 1

  Scenario: Saving unchanged settings is not a new policy and requests no rescore
    Given the scoring policy criteria were saved as "Remote-first backend roles"
    And rescores were requested
    When the scoring policy criteria are saved as "Remote-first backend roles"
    And rescores are requested
    Then the log holds 1 ScoringPolicyUpdated event
    And the log holds 2 ScoreRescoreRequested events

  Scenario: A rescore under the new policy clears the stale mark
    Given the scoring policy criteria were saved as "Remote-first backend roles"
    And rescores were requested
    When job "job-1" is scored
    Then job "job-1" is current under policy 1 at score version 2
    And job "job-2" is still stale

  Scenario: Band thresholds come from the current policy
    When the scoring policy is saved with a strong band from 10
    And job "job-1" is scored
    Then the latest fit band of job "job-1" is "good"

  Scenario: Inconsistent band thresholds are refused
    When the scoring policy is saved with a strong band from 5
    Then the command is refused with "invalid_scoring_policy" and nothing is written
