Feature: Enriching a job from its posting page
  The extraction cascade tries schema.org JobPosting JSON-LD first, then readable-text extraction.
  Each tier has a confidence; a low-confidence description keeps Tailor explicitly blocked by Enrich.
  Whether the application target is known is a separate question that never blocks Tailor.

  Scenario: A JSON-LD posting is enriched with high confidence
    Given the posting page "/jobs/1" carries JobPosting JSON-LD
    When job "job-1" is enriched from "/jobs/1"
    Then the outcome of "job-1" is "enriched" with nothing blocking Tailor
    And job "job-1" has snapshot version 1 from tier "json_ld"
    And the enriched description of "job-1" contains "Own the PostgreSQL schema"
    And the application target of "job-1" is "ready" at "https://ats.example/apply/77"

  Scenario: A page without JSON-LD falls back to readable text
    Given the posting page "/jobs/2" is a plain article
    When job "job-2" is enriched from "/jobs/2"
    Then the outcome of "job-2" is "enriched" with nothing blocking Tailor
    And job "job-2" has snapshot version 1 from tier "readable_text"

  Scenario: A low-confidence posting keeps Tailor blocked by Enrich
    Given the posting page "/jobs/3" holds only a short blurb
    When job "job-3" is enriched from "/jobs/3"
    Then the outcome of "job-3" is "blocked" blocked by "ENRICH_LOW_CONFIDENCE"
    And job "job-3" has snapshot version 1 from tier "readable_text_sparse"

  Scenario: A missing application URL alone does not block Tailor
    Given the posting page "/jobs/4" carries JobPosting JSON-LD but no apply link
    When job "job-4" is enriched from "/jobs/4"
    Then the outcome of "job-4" is "enriched" with nothing blocking Tailor
    And the application target of "job-4" is "missing" with no URL

  Scenario: A description delivered by the source is used without fetching
    When job "job-5" is enriched from its source payload
    Then the outcome of "job-5" is "enriched" with nothing blocking Tailor
    And job "job-5" has snapshot version 1 from tier "source_payload"
    And the site was never asked for "/jobs/5"

  Scenario: A page with no posting text fails the enrichment
    Given the posting page "/jobs/6" is empty
    When job "job-6" is enriched from "/jobs/6"
    Then the outcome of "job-6" is "failed" with failure "no_posting_content"
    And job "job-6" recorded a failed snapshot "no_posting_content" that is not retryable

  Scenario: A transient failure is recorded with its attempt and raised for retry
    Given the posting page "/jobs/7" answers 503
    When job "job-7" is enriched from "/jobs/7"
    And job "job-7" is enriched from "/jobs/7"
    Then the error is retryable "transient_network"
    And job "job-7" recorded enrichment failures with attempts "1,2"

  Scenario: A malformed request is refused and nothing is written
    When job "job-8" is enriched from posting URL "file:///etc/passwd"
    Then the request is refused with "invalid_enrich_request" and nothing is written
