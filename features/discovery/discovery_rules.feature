Feature: Discovery rules
  Identity, dedupe confidence, progress, execution membership and source health.

  Scenario Outline: observed URLs are normalized
    Then "<observed>" normalizes to "<normalized>"

    Examples:
      | observed                                                              | normalized                                  |
      | HTTPS://Boards.Greenhouse.IO/acme/jobs/1/?gh_jid=1&gh_src=x#apply     | https://boards.greenhouse.io/acme/jobs/1    |
      | https://jobs.lever.co/acme/abc/?lever-source=li&utm_medium=x&team=eng | https://jobs.lever.co/acme/abc?team=eng     |
      | https://jobs.ashbyhq.com/acme/9?ashby_jid=9&ref=hn&src=tw&lever_source=a&gh_jrid=1&gh_id=2 | https://jobs.ashbyhq.com/acme/9 |

  Scenario Outline: a re-observation below the auto-merge threshold is held, never merged
    Given a known job at "https://jobs.example/acme/1" with native id "1"
    When a posting at "https://jobs.example/acme/1" is observed with <supplied>
    Then the identity confidence is <confidence> and the verdict is <verdict>

    Examples:
      | supplied                  | confidence | verdict  |
      | canonical URL + native id | 0.9        | same_job |
      | canonical URL only        | 0.6        | held     |
      | posting URL only          | 0.3        | held     |

  Scenario: content duplicates need a genuine employer
    Given a known job "Data Engineer" at "Confidential" with a long description
    When the same posting from another source is observed
    Then the verdict is new

  Scenario: progress never shrinks and a report with total 0 emits nothing
    Given a discovery run planned with 2 source families
    When progress reports arrive as 1/4, 0/0, 0/4, 3/4, 2/3
    Then the recorded progress is 1/4, 3/4

  Scenario: membership is never duplicated or demoted, and closes
    Given a Discover execution "wf-1" run "r-1"
    When job "j1" is linked as existing_backlog, then as observed_this_run, then as existing_backlog
    And job "j1" is planned with steps "score,tailor" and child "prep-1"
    And membership is closed
    Then job "j1" is a member once, in cohort observed_this_run, planned
    And linking job "j2" is refused with "membership_closed"
    And re-planning job "j1" with steps "score" is refused with "work_plan_conflict"

  Scenario Outline: run outcomes recommend quarantine or disabling
    Then a source with outcomes "<outcomes>" is recommended <recommendation>

    Examples:
      | outcomes            | recommendation                         |
      | ok,ok,fail,fail,fail | quarantined for consecutive_failures  |
      | fail,fail,fail,fail,fail,fail | disabled for consecutive_failures |
      | ok,ok,fail,ok       | nothing                                 |
      | dup,dup,dup         | quarantined for high_duplicate_rate     |

  Scenario Outline: description shingles match only long descriptions of the same employer
    Given a known job "Data Engineer" at "Acme" with a <length> description
    When a posting "Data Engineer (Remote)" at "<employer>" with the description lightly edited is observed
    Then the verdict is <verdict>

    Examples:
      | length | employer | verdict           |
      | long   | Acme     | content_duplicate |
      | short  | Acme     | new               |
      | long   | Globex   | new               |
