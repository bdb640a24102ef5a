Feature: The discovery schedule and the standing auto-apply loop follow settings

  Scenario: The discovery schedule follows the saved settings without a restart
    Given the settings saved through the API say {"discoveryScheduleEnabled": true, "discoveryScheduleCron": "0 7 * * *"}
    When the worker starts up
    Then schedule "jobctrl-discovery-local" exists on cron "0 7 * * *" skipping overlaps
    When the settings saved through the API say {"discoveryScheduleEnabled": false} and a heartbeat passes
    Then schedule "jobctrl-discovery-local" does not exist
    When the settings saved through the API say {"discoveryScheduleEnabled": true, "discoveryScheduleCron": "30 6 * * 1"} and a heartbeat passes
    Then schedule "jobctrl-discovery-local" exists on cron "30 6 * * 1" skipping overlaps

  Scenario: Turning auto apply on and off through the API starts and cancels the loop without a restart
    Given the settings saved through the API say {"autoApply": true}
    When the worker starts up
    Then the loop "apply-auto-local" is running
    When the settings saved through the API say {"autoApply": false} and a heartbeat passes
    Then the loop "apply-auto-local" is canceled
    When the settings saved through the API say {"autoApply": true} and a heartbeat passes
    Then the loop "apply-auto-local" is running again
    When the settings saved through the API say {"autoApply": false} and a heartbeat passes
    Then the loop "apply-auto-local" is canceled

  Scenario: Unsetting a saved setting through the API returns the worker to the default without a restart
    Given the settings saved through the API say {"autoApply": true, "discoveryScheduleEnabled": true}
    When the worker starts up
    Then the loop "apply-auto-local" is running
    And schedule "jobctrl-discovery-local" exists on cron "0 7 * * *" skipping overlaps
    When the settings saved through the API say {"autoApply": null, "discoveryScheduleEnabled": null} and a heartbeat passes
    Then the loop "apply-auto-local" is canceled
    And schedule "jobctrl-discovery-local" does not exist

  Scenario: Until settings are saved, the configuration seeds them
    Given auto apply is enabled in the configuration only
    When the worker starts up
    Then the loop "apply-auto-local" is running
    When auto apply is turned off in the configuration and a heartbeat passes
    Then the loop "apply-auto-local" is canceled

  Scenario: A budget halt keeps the loop stopped while spend is at the ceiling
    Given auto apply is enabled and today's spend is at the ceiling
    When the worker starts up
    Then the loop "apply-auto-local" failed with "budget_exceeded"
    When a heartbeat passes
    Then the loop was not restarted
