Feature: Pipeline steps
  The Discover workflow reports its steps' transitions (queued, started, completed, failed) through
  the record_pipeline_steps activity.  Each transition of a step is recorded once per execution, so a
  retried or overlapping batch appends nothing twice; the pipeline_step_projections read model shows
  each step, attempt-aware: within one attempt the first terminal result wins.

  Background:
    Given step "source_family" item "greenhouse" of execution "discover-local" run "r1"

  Scenario: A retried batch appends each transition once
    Given the step started
    When the batch "started, completed" is reported
    Then the execution has events PipelineStepStarted, PipelineStepCompleted
    And the step shows succeeded

  Scenario: The first terminal result wins
    Given the step started
    And the step completed with 12 items
    When the step fails with "source_unavailable"
    Then the step shows succeeded with 12 items

  Scenario: A late queued report only fills in the queued time
    Given the step started
    When the batch "queued" is reported
    Then the step shows running with its queued and started times

  Scenario: Error codes are bounded
    Given the step started
    When the step fails with "ConnectionError: host 10.0.0.1 refused"
    Then the step shows failed with code "unclassified"
