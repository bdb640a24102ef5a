Feature: The snapshot selects one Discover execution and counts its work in three scopes
  An active or draining execution is preferred over the latest terminal one. Its observed jobs,
  its swept backlog and everything else are counted separately, never as one denominator.

  Scenario: A running execution with open membership is discovering
    Given a Discover execution that is "in_progress"
    And 2 observed jobs "j" that are pending
    When the operations snapshot is read
    Then execution.phase is "discovering"
    And execution.selectedAs is "active_or_draining"
    And execution.membershipClosed is false
    And execution.currentExecution.pending is 2
    And the "enrich" counts in current_execution are eligible=2, waiting=2

  Scenario: Unresolved swept backlog keeps a successful workflow draining
    Given a Discover execution that is "succeeded"
    And 2 observed jobs "j" that are planned
    And jobs "j" 0 to 1 finished "enrich" in 500 ms
    And jobs "j" 0 to 1 finished "score" in 500 ms
    And 1 swept jobs "b" that are planned
    And the membership is closed
    When the operations snapshot is read
    Then execution.phase is "draining"
    And execution.currentExecution.remaining is 0
    And execution.sweptExistingBacklog.remaining is 1
    And the "score" counts in execution_sweep are eligible=1, unknown=1

  Scenario: A finished execution with every member terminal is completed
    Given a Discover execution that is "succeeded"
    And 1 observed jobs "j" that are planned
    And 1 observed jobs "n" that are not eligible
    And jobs "j" 0 to 0 finished "enrich" in 500 ms
    And jobs "j" 0 to 0 finished "score" in 500 ms
    And the membership closing is recorded
    When the operations snapshot is read
    Then execution.phase is "completed"
    And execution.membershipClosed is true
    And execution.selectedAs is "latest_terminal"
    And execution.currentExecution.members is 2
    And execution.currentExecution.notEligible is 1
    And execution.currentExecution.terminal is 2

  Scenario: A finished execution with an exhausted stage is completed with issues
    Given a Discover execution that is "succeeded"
    And 1 observed jobs "j" that are planned
    And jobs "j" 0 to 0 finished "enrich" in 500 ms
    And job "j0" exhausted "score"
    And the membership is closed
    When the operations snapshot is read
    Then execution.phase is "completed_with_issues"
    And the "score" counts in current_execution are eligible=1, exhausted=1

  Scenario: A failed workflow is failed
    Given a Discover execution that is "failed"
    When the operations snapshot is read
    Then execution.phase is "failed"
    And execution.workflowStatus is "failed"

  Scenario: Work outside the execution is counted only in the global scope
    Given a Discover execution that is "in_progress"
    And 1 observed jobs "j" that are planned
    And 1 swept jobs "b" that are planned
    And jobs "j" 0 to 0 are running "enrich"
    And jobs "b" 0 to 0 are running "enrich"
    And jobs "x" 0 to 2 are running "enrich"
    And job "y" is blocked at "score"
    And an idle worker with a fresh heartbeat
    When the operations snapshot is read
    Then the "enrich" counts in current_execution are eligible=1, processing=1
    And the "enrich" counts in execution_sweep are eligible=1, processing=1
    And the "enrich" counts in global_outside_execution are eligible=3, processing=3
    And the "score" counts in global_outside_execution are eligible=1, blocked=1
