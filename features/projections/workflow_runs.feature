Feature: Workflow runs show the latest run of each workflow
  A workflow id can be run again; the read model shows its newest run, the first terminal outcome
  of that run, and a timeline of what happened.  A run the reconciler could not find is only
  provisionally terminated: a marked recovery start of that exact run brings it back.

  Scenario: A new run reopens a finished workflow
    Given workflow "discover-local" run "r1" started
    And workflow "discover-local" run "r1" completed
    When workflow "discover-local" run "r2" started
    Then workflow "discover-local" shows run "r2" as "in_progress"
    And the timeline of "discover-local" has 3 entries

  Scenario: A terminal event from an older run is ignored
    Given workflow "discover-local" run "r1" started
    And workflow "discover-local" run "r2" started
    When workflow "discover-local" run "r1" failed
    Then workflow "discover-local" shows run "r2" as "in_progress"

  Scenario: The first terminal event of a run wins
    Given workflow "discover-local" run "r1" started
    And workflow "discover-local" run "r1" completed
    When workflow "discover-local" run "r1" failed
    Then workflow "discover-local" shows run "r1" as "succeeded"

  Scenario: A run reconciled as not found is restored by a marked recovery start
    Given workflow "discover-local" run "r1" started
    And workflow "discover-local" run "r1" was reconciled as not found
    When workflow "discover-local" run "r1" was started again by recovery
    Then workflow "discover-local" shows run "r1" as "in_progress"
    And the timeline of "discover-local" has 3 entries

  Scenario: The dashboard never shows work of a terminal run as running
    Given workflow "discover-local" run "r1" started
    And job "job-1" stage "enrich" was started by run "r1" of "discover-local"
    When workflow "discover-local" run "r1" failed
    Then the dashboard shows 0 running stages and 1 stale stage
