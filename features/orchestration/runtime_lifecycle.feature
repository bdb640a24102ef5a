Feature: Every run ends with exactly one terminal fact, and nothing stays running forever

  Scenario: A cancelled apply ends as WorkflowCanceled
    Given a single-job apply that is still working
    When the user cancels it
    Then the run recorded "WorkflowStarted, WorkflowCanceled"
    And Temporal closed the run as canceled

  Scenario: A cancelled Discover ends as WorkflowCanceled while its families crawl
    Given a Discover run whose source families are still crawling
    When the user cancels it
    Then the run recorded "WorkflowStarted, WorkflowCanceled"
    And Temporal closed the run as canceled
    And every started family step was closed as "canceled"

  Scenario: The reconciler settles a run whose worker was killed
    Given a single-job apply that is still working
    When the run is killed without recording its outcome
    And the reconciler runs twice
    Then the run recorded "WorkflowStarted, WorkflowTerminated"
    And the terminal code is "reconciled_terminated"

  Scenario: A run missing from history is provisional until it reappears
    Given a single-job apply running where the reconciler cannot see it
    When the reconciler runs against the wrong history
    Then the run is provisionally settled as "reconciled_not_found"
    When the reconciler runs against the right history
    And the apply finishes
    Then the run recorded "WorkflowStarted, WorkflowTerminated, WorkflowStarted, WorkflowCompleted"
    And the second WorkflowStarted is marked as recovered from missing history
