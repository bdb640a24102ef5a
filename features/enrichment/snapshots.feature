Feature: Immutable, versioned posting content snapshots
  A snapshot never changes once captured.  New content is a new version; the same content again is
  not a new snapshot.

  Scenario: Re-enriching unchanged content records nothing new
    Given the posting page "/jobs/1" carries JobPosting JSON-LD
    And job "job-1" was enriched from "/jobs/1"
    When job "job-1" is enriched from "/jobs/1"
    Then job "job-1" has snapshot version 1 from tier "json_ld"
    And job "job-1" has 1 captured snapshot

  Scenario: Changed content is a new snapshot version with a new reference
    Given the posting page "/jobs/1" carries JobPosting JSON-LD
    And job "job-1" was enriched from "/jobs/1"
    When the posting page "/jobs/1" changes its description
    And job "job-1" is enriched from "/jobs/1"
    Then job "job-1" has snapshot version 2 from tier "json_ld"
    And the two snapshots of "job-1" have different references

  Scenario: A trusted snapshot lifts the low-confidence block
    Given the posting page "/jobs/3" holds only a short blurb
    And job "job-3" was enriched from "/jobs/3"
    When the posting page "/jobs/3" gains JobPosting JSON-LD
    And job "job-3" is enriched from "/jobs/3"
    Then the outcome of "job-3" is "enriched" with nothing blocking Tailor
    And job "job-3" has snapshot version 2 from tier "json_ld"
