Feature: Orchestration settings
  Settings have safe defaults.  A change is validated as a whole before it is saved; an invalid
  value is refused with a typed error and nothing is saved.

  Background:
    Given no settings were saved

  Scenario: Defaults
    Then the settings are auto_apply false, apply_approval_required true, min_fit_score 7, apply_concurrency 1
    And the settings are worker_activity_slots 4, daily_budget_usd 25, discovery_schedule_enabled false
    And the discovery schedule cron is "0 7 * * *" and the task queue is "jobctrl-default"

  Scenario: A valid change is saved and read back
    When the settings are changed to {"apply_concurrency": 4, "discovery_schedule_cron": "30 6 * * 1-5"}
    Then the saved settings have apply_concurrency 4 and cron "30 6 * * 1-5"

  Scenario Outline: An invalid value saves nothing
    Given the settings were changed to {"apply_concurrency": 2}
    When the settings are changed to <change>
    Then the change is refused as "invalid_settings" mentioning "<field>"
    And the saved settings still have apply_concurrency 2

    Examples:
      | change | field |
      | {"apply_concurrency": 17, "auto_apply": true} | apply_concurrency |
      | {"worker_activity_slots": 0} | worker_activity_slots |
      | {"daily_budget_usd": -1} | daily_budget_usd |
      | {"tailoring_judge_min_score": 1.5} | tailoring_judge_min_score |
      | {"apply_timeout_seconds": 30} | apply_timeout_seconds |
      | {"discovery_schedule_cron": "0 25 * * *"} | discovery_schedule_cron |
      | {"auto_apply": "yes"} | auto_apply |
      | {"no_such_setting": 1} | no_such_setting |

  Scenario: A saved key is unset back to its default
    Given the settings were changed to {"apply_concurrency": 4, "auto_apply": true}
    When the saved settings "apply_concurrency" are unset
    Then the saved settings have apply_concurrency 1 and cron "0 7 * * *"
    And the saved document holds only {"auto_apply": true}

  Scenario: Unsetting a key that was never saved writes nothing
    When the saved settings "apply_concurrency" are unset
    Then no settings document was written

  Scenario Outline: An unset the settings do not allow saves nothing
    Given the settings were changed to {"apply_concurrency": 2}
    When the saved settings <keys> are unset
    Then the change is refused as "invalid_settings" mentioning "<field>"
    And the saved settings still have apply_concurrency 2

    Examples:
      | keys | field |
      | "no_such_setting" | no_such_setting |
      | "apply_concurrency, no_such_setting" | no_such_setting |
