Feature: Pipeline steps
  A pipeline step is keyed by execution, step kind and item key.  A higher attempt replaces an
  older one, a late lower attempt is ignored, and within one attempt the first terminal wins.

  Background:
    Given step "source_family" item "greenhouse" of execution "discover-local" run "r1"

  Scenario: A newer attempt replaces the older one and a late older report is ignored
    Given attempt 1 of the step started
    And attempt 2 of the step started
    When attempt 1 of the step completes
    Then the step is running at attempt 2
    And the step has events PipelineStepStarted, PipelineStepStarted

  Scenario: The first terminal result of an attempt wins
    Given attempt 1 of the step started
    And attempt 1 of the step completes with detail "jobs_found" 12
    When attempt 1 of the step fails with "source_unavailable"
    Then the step is succeeded at attempt 1
    And the step has events PipelineStepStarted, PipelineStepCompleted

  Scenario: A detail code outside the allowlist is refused and nothing is appended
    Given attempt 1 of the step started
    When attempt 1 of the step completes with detail "https://secret.example/x" 1
    Then the write is refused as DetailNotAllowed
    And the step has events PipelineStepStarted

  Scenario: Error codes are bounded
    Given attempt 1 of the step started
    When attempt 1 of the step fails with "ConnectionError: host 10.0.0.1 refused"
    Then the step is failed at attempt 1 with code "unclassified"
