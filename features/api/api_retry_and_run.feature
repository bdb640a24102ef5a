Feature: Retry a failed stage and run it now
  Retry-and-run hands work to the worker, so it checks the worker first and changes nothing when
  no worker is ready.

  Scenario: No fresh worker heartbeat: 503 and nothing changes
    Given job "j1" whose score stage failed
    And the last worker heartbeat was 46 seconds ago
    When the operator retries stage "score" of job "j1" and runs it now
    Then the answer is 503 "worker_runtime_unavailable"
    And the job log did not move
    And stage "score" of job "j1" is still failed

  Scenario: A fresh worker: the stage is reset and handed to the worker
    Given job "j1" whose score stage failed
    And the last worker heartbeat was 10 seconds ago
    When the operator retries stage "score" of job "j1" and runs it now
    Then the answer is 202
    And stage "score" of job "j1" is pending
    And a JobPreparationWorkflow was started for job "j1"

  Scenario: Reset only is a local transition that needs no worker
    Given job "j1" whose enrich stage failed
    When the operator retries stage "enrich" of job "j1" without running it
    Then the answer is 200
    And stage "enrich" of job "j1" is pending
