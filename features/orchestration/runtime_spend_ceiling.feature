Feature: The daily spend ceiling gates every spendful workflow
  The spend preflight runs before any paid work, exactly once: a depleted budget is a clean, fast
  failure, not a retry storm.

  Scenario: Discover at the ceiling fails before any source is planned
    Given today's LLM spend is 25 dollars against a 25 dollar ceiling
    When a Discover run starts
    Then the run fails with code "budget_exceeded"
    And the spend preflight was read exactly once
    And no source was planned or crawled
    And the run recorded "WorkflowStarted, WorkflowFailed"

  Scenario: Contact research at the ceiling fails before extraction
    Given today's LLM spend is 30 dollars against a 25 dollar ceiling
    When a contact research run starts
    Then the run fails with code "budget_exceeded"
    And no contact extraction ran

  Scenario: A zero ceiling means unlimited
    Given today's LLM spend is 900 dollars against a 0 dollar ceiling
    When a Discover run starts
    Then the run succeeds
