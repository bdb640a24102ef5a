Feature: Discover isolates source families and fans preparation out per job

  Scenario: One failed family gives a partial result
    Given source families "greenhouse, lever, ashby" where "lever" fails with "source_unavailable"
    When a Discover run starts
    Then the run succeeds listing failed family "lever" with code "source_unavailable"
    And the progress spine ended at 5 of 5
    And the pipeline steps recorded family "lever" as failed and "greenhouse" as completed

  Scenario: Every family failing fails the run with the sources' own error
    Given source families "greenhouse, lever" where every family fails with "source_unavailable"
    When a Discover run starts
    Then the run fails with code "discovery_source_failed"
    And the failure message names "greenhouse: source_unavailable"
    And the run recorded "WorkflowStarted, WorkflowFailed"
    And the execution's membership was closed once, for "interrupted_discovery_source_failed"

  Scenario: The fan-out starts one preparation workflow per eligible job, idempotently
    Given source families "greenhouse" and 3 eligible jobs
    When a Discover run starts
    And the same Discover facts are fanned out again
    Then 3 preparation workflows exist with ids "prep-preparation:<sha256>"
    And every preparation workflow completed score, tailor, cover and pdf

  Scenario: The progress spine is fixed at plan time and only moves forward
    Given source families "greenhouse, lever, ashby, workday" that crawl until released
    When a Discover run is watched while its families are released
    Then every observed progress total was 6
    And the observed progress never moved backwards and ended at 6
