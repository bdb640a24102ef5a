Feature: Discovery runs over the sample job board
  Sources are fetched through the gateway, postings become jobs, cross-posted jobs are merged
  with their observations kept, and a broken source is isolated with a typed error class.

  Scenario: a first run finds every posting once and merges the cross-posted ones
    Given the sample job board is running
    When a discovery run crawls every sample source
    Then the run completed with 57 postings, 55 new jobs, 0 existing, 2 duplicates, 0 held
    And 2 DuplicateJobLinked events were raised
    And no robots-disallowed page was requested

  Scenario: a second run observes the same jobs again and creates none
    Given the sample job board is running
    And a discovery run crawled every sample source
    When a discovery run crawls every sample source
    Then the run completed with 57 postings, 0 new jobs, 55 existing, 2 duplicates, 0 held

  Scenario Outline: a misbehaving source is isolated and writes nothing
    Given the sample job board is running
    And the Greenhouse board "globex" answers <answer>
    When a discovery run crawls every sample source
    Then the run completed listing the error class "<code>"
    And no job from "Globex Corporation" was recorded

    Examples:
      | answer        | code               |
      | malformed     | source_unavailable |
      | empty         | source_unavailable |
      | wrong shape   | source_unavailable |
      | huge          | source_unavailable |
      | slowly        | transient_network  |
      | 503           | transient_network  |
      | 404           | source_unavailable |

  Scenario: title and location filters keep only matching postings
    Given the sample job board is running
    When the Lever board "initech" is crawled for titles "Engineer" in "London"
    Then every posting found has "Engineer" in its title and "London" in its location
