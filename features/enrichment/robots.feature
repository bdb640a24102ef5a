Feature: robots.txt blocks and their resolution
  When robots.txt disallows a detail fetch, the enrich row is blocked with ENRICH_ROBOTS_DISALLOWED.
  Resolving that condition for a source selects exactly those rows: not robots blocks of other
  sources, not other blocks, not ordinary pending rows.

  Scenario: A disallowed detail fetch blocks the enrich row
    Given the posting page "/linkedin/1" carries JobPosting JSON-LD
    When job "li-1" is enriched from "/linkedin/1" for source "linkedin"
    Then the outcome of "li-1" is "blocked" blocked by "ENRICH_ROBOTS_DISALLOWED"
    And job "li-1" recorded a failed snapshot "robots_disallowed" that is not retryable
    And the site was never asked for "/linkedin/1"

  Scenario: A resolution selects exactly the rows blocked by that condition on that source
    Given job "li-robots" was enriched from "/linkedin/2" for source "linkedin"
    And job "other-robots" was enriched from "/blocked-careers/9" for source "acme-careers"
    And the posting page "/jobs/3" holds only a short blurb
    And job "li-low" was enriched from "/jobs/3" for source "linkedin"
    And the posting page "/jobs/7" answers 503
    And job "li-transient" was enriched from "/jobs/7" for source "linkedin"
    When the robots condition is resolved for source "linkedin"
    Then exactly "li-robots" is selected

  Scenario: A row that was enriched since leaves the blocked cohort
    Given job "li-1" was enriched from "/linkedin/1" for source "linkedin"
    And job "li-2" was enriched from "/linkedin/2" for source "linkedin"
    And the posting page "/jobs/1" carries JobPosting JSON-LD
    And job "li-1" was enriched from "/jobs/1" for source "linkedin"
    When the robots condition is resolved for source "linkedin"
    Then exactly "li-2" is selected
