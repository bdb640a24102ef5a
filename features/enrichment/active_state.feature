Feature: A posting's active state
  Enrichment records verified changes of whether a posting is still open.

  Scenario: A posting page that is gone marks the job removed
    When job "job-1" is enriched from "/jobs/missing"
    Then the outcome of "job-1" is "failed" with failure "posting_gone"
    And job "job-1" changed active state from "unknown" to "removed"

  Scenario: A JSON-LD posting past its validThrough date is expired
    Given the posting page "/jobs/2" carries JobPosting JSON-LD valid through "2025-12-31"
    When job "job-2" is enriched from "/jobs/2"
    Then job "job-2" changed active state from "unknown" to "expired"

  Scenario: A live posting is active, and a repeated report records nothing
    Given the posting page "/jobs/3" carries JobPosting JSON-LD
    And job "job-3" was enriched from "/jobs/3"
    When job "job-3" is reported "closed" by "ats_listing_check"
    And job "job-3" is reported "closed" by "ats_listing_check"
    Then job "job-3" went through active states "active,closed"
