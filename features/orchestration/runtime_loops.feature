Feature: The discovery schedule and the standing auto-apply loop follow settings

  Scenario: The discovery schedule is reconciled only at worker start-up
    Given scheduling is enabled on cron "0 7 * * *"
    When the worker starts up
    Then schedule "jobctrl-discovery-local" exists on cron "0 7 * * *" skipping overlaps
    When scheduling is disabled and a heartbeat passes
    Then schedule "jobctrl-discovery-local" still exists
    When the worker starts up
    Then schedule "jobctrl-discovery-local" does not exist

  Scenario: Turning auto apply on and off starts and cancels the loop without a restart
    Given auto apply is enabled
    When the worker starts up
    Then the loop "apply-auto-local" is running
    When auto apply is disabled and a heartbeat passes
    Then the loop "apply-auto-local" is canceled

  Scenario: A budget halt keeps the loop stopped while spend is at the ceiling
    Given auto apply is enabled and today's spend is at the ceiling
    When the worker starts up
    Then the loop "apply-auto-local" failed with "budget_exceeded"
    When a heartbeat passes
    Then the loop was not restarted
