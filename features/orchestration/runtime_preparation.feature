Feature: Job preparation isolates jobs and resumes at the failed step

  Scenario: A failed step fails only that job
    Given jobs "job-a" and "job-b" where "job-b" fails at "tailor"
    When both jobs are prepared
    Then "job-a" completed "score, tailor, cover, pdf"
    And "job-b" failed with code "tailor_failed"
    And "job-b" reconciled its owned "tailor" rows before failing

  Scenario: A rerun resumes at the failed step
    Given jobs "job-b" where "job-b" fails at "cover"
    When both jobs are prepared
    And "job-b" is prepared again under the same idempotency key
    Then "job-b" completed "score, tailor, cover, pdf"
    And "job-b" ran "score" only once

  Scenario: A job that is not eligible ends the chain without failing
    Given jobs "job-c" where "job-c" is "not_eligible" at "score"
    When both jobs are prepared
    Then "job-c" stopped at "score" as "not_eligible"
    And "job-c" never ran "tailor"
