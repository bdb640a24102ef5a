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
