Feature: Read models are rebuilt from the log
  Every read model is a fold of job_events, so lost rows are recovered from the log, and a rebuild
  gives exactly the tables the incremental fold gave.

  Scenario: Start-up rebuilds a read model whose rows went missing
    Given workflow "discover-local" run "r1" started
    And the read models are up to date
    When the workflow run rows are lost and the runner starts
    Then workflow "discover-local" shows run "r1" as "in_progress"

  Scenario: A rebuild reproduces the folded tables
    Given a generated log of 20 jobs
    And the read models are up to date
    When the read models are rebuilt
    Then every read-model table is identical to before

  Scenario: Start-up finds rows deleted from read models that are not empty, and restores them
    Given a generated log of 20 jobs
    And the runner has started and the read models are up to date
    When 3 "workflow_run_projections" rows and 3 "job_list_projections" rows are deleted
    Then the projection check finds "job_list, workflow_runs" short of rows
    When the runner starts again
    Then the runner rebuilt "job_list, workflow_runs"
    And every read-model table is identical to before

  Scenario: A rebuild killed before its swap leaves shadow tables that status lists and the next start drops
    Given a generated log of 20 jobs
    And the runner has started and the read models are up to date
    When a rebuild of "workflow_runs" is killed after filling its shadow tables
    Then projections status lists "workflow_run_projections__rebuild" as left over
    When the runner starts again
    Then projections status lists no leftover tables
    And every read-model table is identical to before
