Feature: The daily LLM spend ceiling
  Every model call adds its estimated cost to today's (UTC) ledger row.  The preflight of every
  spendful workflow refuses to start once today's spend is at or above the ceiling; a ceiling of 0
  means unlimited.

  Background:
    Given an empty spend ledger

  Scenario: Calls on one day add up in one row
    When a "gpt-4o" call uses 1000000 input and 100000 output tokens
    And a "gemini-2.5-flash" call uses 1000000 input and 0 output tokens
    Then today's spend is 3.80 USD over 2 calls

  Scenario: A budget below today's spend lets work start
    Given the daily budget is 25 USD
    And 24.99 USD was spent today
    When the spend preflight runs
    Then the preflight passes with 0.01 USD remaining

  Scenario: Spend exactly at the ceiling stops new work
    Given the daily budget is 25 USD
    And 25.00 USD was spent today
    When the spend preflight runs
    Then the preflight fails with "budget_exceeded" and is not retryable

  Scenario: A budget of zero is unlimited
    Given the daily budget is 0 USD
    And 1000.00 USD was spent today
    When the spend preflight runs
    Then the preflight passes as unlimited

  Scenario: Yesterday's spend does not count today
    Given the daily budget is 25 USD
    And 30.00 USD was spent today
    When the day changes
    And the spend preflight runs
    Then the preflight passes with 25.00 USD remaining

  Scenario: Local models cost nothing and unknown models use the generic rate
    When a "local-llama" call uses 1000000 input and 1000000 output tokens
    And a "gpt-5.5" call uses 1000000 input and 1000000 output tokens
    Then today's spend is 5.00 USD over 2 calls
