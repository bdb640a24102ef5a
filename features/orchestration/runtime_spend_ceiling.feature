Feature: The daily spend ceiling gates every spendful workflow
  The spend preflight reads the run's tenant's row of the real llm_spend ledger, once, before any
  paid work: a depleted budget is a clean, fast failure, not a retry storm, and no job's preparation
  starts paid work.

  Scenario Outline: A <workflow> run at the ceiling fails before any paid work
    Given today's LLM spend is 25 dollars against a 25 dollar ceiling
    When a <workflow> run starts
    Then the run fails with code "budget_exceeded"
    And the spend preflight ran exactly once
    And no paid work started
    And the run recorded "WorkflowStarted, WorkflowFailed"

    Examples:
      | workflow            |
      | Discover            |
      | JobPreparation      |
      | ProfileContinuation |
      | Apply               |
      | ContactResearch     |

  Scenario Outline: A <workflow> run under the ceiling passes the preflight and does its paid work
    Given today's LLM spend is 24 dollars against a 25 dollar ceiling
    When a <workflow> run starts
    Then the run succeeds
    And the spend preflight ran exactly once
    And its paid work ran

    Examples:
      | workflow            |
      | Discover            |
      | JobPreparation      |
      | ProfileContinuation |
      | Apply               |
      | ContactResearch     |

  Scenario: Another tenant's spend does not count against this one
    Given tenant "acme" spent 30 dollars today against a 25 dollar ceiling
    When a JobPreparation run starts
    Then the run succeeds
    And its paid work ran

  Scenario: A zero ceiling means unlimited
    Given today's LLM spend is 900 dollars against a 0 dollar ceiling
    When a Discover run starts
    Then the run succeeds
