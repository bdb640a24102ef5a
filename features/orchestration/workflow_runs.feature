Feature: Workflow runs and their reconciliation
  Every workflow run records one start and one terminal result.  The first terminal result wins;
  a new Temporal run reopens the row.  A reconciler settles runs against Temporal's describe.

  Background:
    Given workflow "prep-1" run "r1" was started

  Scenario: A second start marker for the same run appends nothing
    When workflow "prep-1" run "r1" is started again
    Then workflow "prep-1" has events WorkflowStarted

  Scenario: The first terminal result wins
    Given workflow "prep-1" run "r1" succeeded
    When workflow "prep-1" run "r1" reports failure "score_failed"
    Then workflow "prep-1" has events WorkflowStarted, WorkflowCompleted
    And workflow "prep-1" is succeeded

  Scenario: A failure carries a bounded code and fixed text, never exception text
    When workflow "prep-1" run "r1" reports failure "Traceback: KeyError 'secret'"
    Then workflow "prep-1" is failed with code "unclassified"
    And no event of workflow "prep-1" mentions "secret"

  Scenario: A new run reopens; a cancel aimed at the old run does not touch it
    Given workflow "prep-1" run "r1" succeeded
    When workflow "prep-1" run "r2" is started again
    And a cancel for workflow "prep-1" run "r1" is requested
    Then workflow "prep-1" is in_progress
    And workflow "prep-1" has events WorkflowStarted, WorkflowCompleted, WorkflowStarted

  Scenario: The input summary keeps only allowlisted codes and counts
    When workflow "disc-1" run "r9" is started with input {"limit": 5, "postingUrl": "https://x/y", "stages": ["score", "a b"]}
    Then the start of workflow "disc-1" summarizes {"limit": 5, "stages": ["score"]}

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
    Then workflow "prep-1" has events WorkflowStarted, WorkflowTerminated, WorkflowStarted, WorkflowCompleted
    And the last start of workflow "prep-1" is marked recovered from missing history

  Scenario: The reconciler never overwrites a terminal status
    Given workflow "prep-1" run "r1" succeeded
    When the reconciler finds workflow "prep-1" FAILED
    Then workflow "prep-1" is succeeded
