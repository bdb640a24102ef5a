Feature: Correcting a score
  A user can correct a job's score.  The correction is a new score version; the original stays in
  the log.

  Scenario: A correction creates a new score version
    Given job "job-1" was scored
    When the score of job "job-1" is corrected to 3 because "Role is actually on-site"
    Then job "job-1" has score version 2
    And the correction records the original score and 3

  Scenario: A correction stays current when the same inputs are scored again
    Given job "job-1" was scored
    And the score of job "job-1" was corrected to 3 because "Role is actually on-site"
    When job "job-1" is scored
    Then job "job-1" has score version 2
    And the current score of job "job-1" is 3

  Scenario: A job without a score cannot be corrected
    When the score of job "job-9" is corrected to 3 because "No reason"
    Then the command is refused with "score_not_found" and nothing is written

  Scenario: A corrected score must be between 1 and 10
    Given job "job-1" was scored
    When the score of job "job-1" is corrected to 11 because "Too good"
    Then the command is refused with "invalid_score_correction" and nothing is written
