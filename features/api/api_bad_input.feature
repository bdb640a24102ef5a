Feature: Bad input writes nothing
  Every refused request is a typed error and leaves the log as it was.

  Scenario: An unsupported run-after stage
    Given job "j1" whose enrich stage failed
    And the last worker heartbeat was 10 seconds ago
    When the operator retries stage "enrich" of job "j1" and runs it now
    Then the answer is 400 "unsupported_retry_run_after_stage"
    And the job log did not move

  Scenario: Invalid settings are not saved
    When the operator sets workerActivitySlots to 0
    Then the answer is 422 "invalid_settings"
    And the saved worker activity slots are still 4

  Scenario: An unknown profile section
    When the operator saves a profile with an unknown section "hobbies"
    Then the answer is 422 "invalid_request"
    And the job log did not move
