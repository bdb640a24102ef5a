Feature: Discover executions, runs, sources, blocked applies and policies are folds of the log
  Execution membership, run progress, source quality, apply runs and scoring policies keep the
  rules of their aggregates even when events arrive late or twice.

  Scenario: An observation promotes a backlog member and nothing demotes it
    Given job "job-1" joined the execution as "existing_backlog"
    And job "job-1" was promoted by an observation
    When job "job-1" joined the execution as "existing_backlog"
    Then job "job-1" is a member in cohort "observed_this_run"

  Scenario: A planned work plan never changes
    Given job "job-1" joined the execution as "observed_this_run"
    And the plan of "job-1" failed with "llm_unavailable"
    And job "job-1" was planned with steps "enrich,score" under child "prepare-job-1"
    When the plan of "job-1" was recorded not eligible with "below_threshold"
    Then the plan of "job-1" is "planned" with steps "enrich,score" under child "prepare-job-1"

  Scenario: Membership closes once per execution
    Given job "job-1" joined the execution as "observed_this_run"
    And the execution membership closed with 1 member
    When the execution membership closed with 5 members
    Then the execution membership is closed with 1 member

  Scenario: Run progress never shrinks nor goes back
    Given discovery run "run-1" reported 3 of 6
    When discovery run "run-1" reported 2 of 4
    And discovery run "run-1" reported 9 of 0
    Then discovery run "run-1" shows 3 of 6

  Scenario: A run interrupted mid-family is failed with its reason and blames no source
    Given source "greenhouse:acme" was registered
    And discovery run "run-1" reported 1 of 4
    When discovery run "run-1" was interrupted because its workflow was "reconciled_terminated"
    Then discovery run "run-1" is failed with "reconciled_terminated" and no failed source
    And source "greenhouse:acme" has no run failure and no source row was made for the interrupted run

  Scenario: An observation resets a source's consecutive failures
    Given source "greenhouse:acme" was registered
    And source "greenhouse:acme" failed a run twice
    And source "greenhouse:acme" was quarantined
    When source "greenhouse:acme" observed a job
    Then source "greenhouse:acme" is "quarantined" with 2 failures, 0 in a row and 1 observation

  Scenario: A blocked apply run is terminal and waits for a human
    Given apply run "apply-1" for job "job-1" started
    And apply run "apply-1" was blocked for "third_party_challenge"
    When apply run "apply-1" reports a late submission
    Then apply run "apply-1" is "manual" with code "third_party_challenge"

  Scenario: A late scoring policy version never replaces a newer one
    Given scoring policy "default" version 3 was saved
    When scoring policy "default" version 2 was saved
    Then scoring policy "default" is at version 3
