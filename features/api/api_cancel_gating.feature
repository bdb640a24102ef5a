Feature: Cancel a Discover execution
  Only an in-progress Discover run that is discovering or draining can be stopped.

  Scenario: An in-progress run that is discovering can be canceled
    Given an in-progress Discover run "discover-local"
    When the operator cancels "discover-local"
    Then the answer is 202
    And WorkflowCancellationRequested was recorded once
    And Temporal was asked to cancel that run of "discover-local"

  Scenario: A closed run whose durable phase still says draining is not cancelable
    Given a Discover run "discover-local" that completed with an enrichment pass still running
    When the operator cancels "discover-local"
    Then the answer is 409 "run_not_cancelable"
    And the job log did not move

  Scenario: A completed run is not cancelable
    Given a Discover run "discover-local" that completed
    When the operator cancels "discover-local"
    Then the answer is 409 "run_not_cancelable"
    And the job log did not move
