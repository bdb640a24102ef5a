Feature: Workflow runs and their reconciliation
  Every run of a workflow records one start and one terminal result, through orchestration's use
  cases: the worker's lifecycle activities and its describe reconciler call them, and the operator
  sees the workflow_run_projections row.  The first terminal result wins; a new Temporal run of the
  same workflow reopens its row; the reconciler settles runs against Temporal's describe of the
  exact run.

  Background:
    Given workflow "prep-1" run "r1" was started

  Scenario: A second start marker for the same run appends nothing
    When workflow "prep-1" run "r1" is started again
    Then run "r1" of workflow "prep-1" has events WorkflowStarted

  Scenario: The first terminal result wins
    Given workflow "prep-1" run "r1" succeeded
    When workflow "prep-1" run "r1" reports failure "score_failed"
    Then run "r1" of workflow "prep-1" has events WorkflowStarted, WorkflowCompleted
    And workflow "prep-1" is succeeded

  Scenario: A failure carries a bounded code, never exception text
    When workflow "prep-1" run "r1" reports failure "Traceback: KeyError 'secret'"
    Then workflow "prep-1" is failed with code "unclassified"
    And no event of run "r1" of workflow "prep-1" mentions "secret"

  Scenario: A new run reopens; a cancel aimed at the old run does not touch it
    Given workflow "prep-1" run "r1" succeeded
    When workflow "prep-1" run "r2" is started again
    And a cancel for workflow "prep-1" run "r1" is requested
    Then workflow "prep-1" is in_progress
    And workflow "prep-1" shows run "r2" with no cancel requested

  Scenario: The start keeps the summary its workflow gave
    When workflow "disc-1" run "r9" is started with input {"sources": "lever-acme", "tenant": "local"}
    Then the start of run "r9" of workflow "disc-1" summarizes {"sources": "lever-acme", "tenant": "local"}

  Scenario Outline: The reconciler settles a run described as <described>
    When the reconciler finds workflow "prep-1" <described>
    Then workflow "prep-1" is <status> with code "<code>"

    Examples:
      | described | status | code |
      | RUNNING | in_progress | none |
      | FAILED | failed | reconciled_closed_failed |
      | TIMED_OUT | timed_out | reconciled_closed_timed_out |
      | TERMINATED | terminated | reconciled_terminated |
      | NOT_FOUND | terminated | reconciled_not_found |

  Scenario: A run that reappears after NOT_FOUND is recovered, then settled
    Given the reconciler found workflow "prep-1" NOT_FOUND
    When the reconciler finds workflow "prep-1" COMPLETED
    Then run "r1" of workflow "prep-1" has events WorkflowStarted, WorkflowTerminated, WorkflowStarted, WorkflowCompleted
    And the last start of run "r1" of workflow "prep-1" is marked recovered from missing history
    And workflow "prep-1" is succeeded

  Scenario: The reconciler never overwrites a terminal status
    Given workflow "prep-1" run "r1" succeeded
    When the reconciler finds workflow "prep-1" FAILED
    Then workflow "prep-1" is succeeded
