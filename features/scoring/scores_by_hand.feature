Feature: Correcting a score and asking for scores again, from the command line and the API
  A user who disagrees with a score corrects it with `jobctrl scores correct` (or the API); after
  changing the scoring policy they ask with `jobctrl scores rescore` for the scores made under the
  old policy to be made again.  Both go through the scoring use cases; a refused request writes
  nothing.

  Scenario: A score corrected from the command line is a new score version
    Given job "job-1" was scored
    When the user runs "jobctrl scores correct job-1 3 --reason 'Role is actually on-site'"
    Then the command succeeds saying "score corrected to 3 (score version 2)"
    And job "job-1" has score version 2
    And the correction records the original score and 3

  Scenario: A score corrected over the API is the same new score version
    Given job "job-1" was scored
    When the user posts a correction of job "job-1" to 3 because "Role is actually on-site"
    Then the API answers 201 with score version 2
    And job "job-1" has score version 2
    And the correction records the original score and 3

  Scenario Outline: A correction the rules refuse exits 2 and writes nothing
    Given job "job-1" was scored
    When the user runs "<command>"
    Then the command exits 2 naming "<code>" and nothing is written

    Examples:
      | command                                                  | code                     |
      | jobctrl scores correct job-9 3 --reason 'Wrong employer' | score_not_found          |
      | jobctrl scores correct job-1 11 --reason 'Too good'      | invalid_score_correction |
      | jobctrl scores correct job-1 3 --reason '   '            | invalid_score_correction |
      | jobctrl scores correct ../etc 3 --reason 'Sneaky'        | invalid_request          |

  Scenario: After a policy change, rescoring marks the older scores stale, once
    Given job "job-1" was scored
    And job "job-2" was scored
    And the scoring policy now weighs "remote work matters most"
    When the user runs "jobctrl scores rescore"
    Then the command succeeds saying "job-1: rescore requested"
    And the command said "job-2: rescore requested"
    And the scores of "job-1, job-2" are stale
    When the user runs "jobctrl scores rescore"
    Then the command succeeds saying "no score is stale"

  Scenario: Rescoring named jobs over the API leaves the others current
    Given job "job-1" was scored
    And job "job-2" was scored
    And the scoring policy now weighs "remote work matters most"
    When the user posts a rescore request for "job-2"
    Then the API answers 200 requesting "job-2"
    And the scores of "job-2" are stale
    And the scores of "job-1" are current

  Scenario: A stale score is made again by the next scoring, under the new policy
    Given job "job-1" was scored
    And the scoring policy now weighs "remote work matters most"
    And the user ran "jobctrl scores rescore job-1"
    When job "job-1" is scored
    Then job "job-1" has score version 2
    And the scores of "job-1" are current
