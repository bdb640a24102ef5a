Feature: Discovery runs over the sample job board
  Sources are fetched through the gateway, postings become jobs, cross-posted jobs are merged
  with their observations kept, and a broken source is isolated with a typed error class.

  Scenario: a first run finds every posting once and merges the cross-posted ones
    Given the sample job board is running
    When a discovery run crawls every sample source
    Then the run completed with 68 postings, 66 new jobs, 0 existing, 2 duplicates, 0 held
    And the merges were decided by "content_fingerprint" and "description_shingles"
    And the merged Northwind job keeps the observations of both of its sources
    And the run progress was recorded as 0/4, 1/4, 2/4
    And no robots-disallowed page was requested

  Scenario: a second run observes the same jobs again and creates none
    Given the sample job board is running
    And a discovery run crawled every sample source
    When a discovery run crawls every sample source
    Then the run completed with 68 postings, 0 new jobs, 66 existing, 2 duplicates, 0 held

  Scenario: repeating a finished run (an activity retry) records nothing new
    Given the sample job board is running
    And a discovery run crawled every sample source
    When the same discovery run is repeated
    Then the log holds no new events

  Scenario Outline: a misbehaving source is isolated and writes nothing
    Given the sample job board is running
    And the <format> board "<board>" answers <answer>
    When a discovery run crawls the boards "<board>" and "initech"
    Then the run completed listing the error class "<code>"
    And no job from "<employer>" was recorded

    Examples:
      | format     | board     | employer           | answer      | code               |
      | Greenhouse | globex    | Globex Corporation | malformed   | source_unavailable |
      | Greenhouse | globex    | Globex Corporation | empty       | source_unavailable |
      | Greenhouse | globex    | Globex Corporation | wrong shape | source_unavailable |
      | Greenhouse | globex    | Globex Corporation | huge        | source_unavailable |
      | Greenhouse | globex    | Globex Corporation | slowly      | transient_network  |
      | Greenhouse | globex    | Globex Corporation | 503         | transient_network  |
      | Greenhouse | globex    | Globex Corporation | 404         | source_unavailable |
      | Lever      | umbrella  | Umbrella Health    | wrong shape | source_unavailable |
      | Lever      | umbrella  | Umbrella Health    | slowly      | transient_network  |
      | Ashby      | piedpiper | Pied Piper         | malformed   | source_unavailable |
      | Ashby      | piedpiper | Pied Piper         | huge        | source_unavailable |
      | Careers    | acme      | Acme Robotics      | 500         | transient_network  |

  Scenario: a run whose every source fails is a failed run
    Given the sample job board is running
    And every sample source answers 503
    When a discovery run crawls every sample source
    Then the run failed with the error class "transient_network"
    And no job was recorded

  Scenario: title and location filters keep only matching postings
    Given the sample job board is running
    When the Lever board "initech" is crawled for titles "Engineer" in "London"
    Then every posting found has "Engineer" in its title and "London" in its location

  Scenario Outline: career-page detail pages that are gone are skipped, other failures fail the source
    Given the sample job board is running
    And the first detail page of the "acme" career page answers <answer>
    When a discovery run crawls the boards "acme" and "initech"
    Then the "careers-acme" source yielded <count> postings and the error classes are "<codes>"

    Examples:
      | answer | count | codes             |
      | 404    | 5     | none              |
      | 410    | 5     | none              |
      | 500    | 0     | transient_network |

  Scenario: families crawled in parallel dedupe against each other
    Given the sample job board is running
    When a discovery run crawls every sample source as 6 families, 4 at a time
    Then the run completed with 68 postings, 66 new jobs, 0 existing, 2 duplicates, 0 held
    And the run progress was recorded as 0/8, 1/8, 2/8, 3/8, 4/8, 5/8, 6/8

  Scenario: a run that dies mid-family ends once, failed with the reason, naming no source
    Given a discovery run was started over 2 source families
    When the run is interrupted because its workflow was "reconciled_terminated"
    And the run is interrupted again because its workflow was "canceled"
    And a family of the dead run reports progress 1 of 4 after all
    Then the run has exactly one terminal fact
    And the run failed with the error class "reconciled_terminated", no failed source, retryable
    And the run progress was recorded as 0/4

  Scenario: a run that finished is never interrupted afterwards
    Given the sample job board is running
    And a discovery run crawled every sample source
    When the finished run is interrupted because its workflow was "reconciled_terminated"
    Then the log holds no new events
