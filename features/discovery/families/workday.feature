Feature: Workday career sites
  A Workday site is added by its careers URL and read through Workday's public CXS JSON search,
  20 postings a page, then one detail request per posting; what goes wrong fails that source alone.

  Scenario: a Workday site added by its careers URL is discovered page by page
    Given a Workday stand-in serving 45 postings of "Acme Aerospace" as "acme/External"
    When I run "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --name 'Acme Aerospace' --api-base {server}"
    Then it exits 0 saying "workday-acme-External added"
    When Discover runs on my sources
    Then 45 new jobs from "Acme Aerospace" were discovered, each with its Workday id
    And each of them is applied for on its posting's Workday apply page
    And the stand-in was asked for 3 pages of 20
    And the source "workday-acme-External" recorded a good crawl of 45 postings

  Scenario: a full last page, then Workday's answer past the end (the first page again), ends the paging
    Given a Workday stand-in serving 40 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/en-US/External --api-base {server} --name 'Acme Aerospace'"
    When Discover runs on my sources
    Then 40 new jobs from "Acme Aerospace" were discovered, each with its Workday id
    And the stand-in was asked for 2 pages of 20

  Scenario: a posting gone between the list and its detail is skipped; the others are kept
    Given a Workday stand-in serving 5 postings of "Acme Aerospace" as "acme/External"
    And the stand-in's first posting is gone
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    When Discover runs on my sources
    Then 4 new jobs from "Acme Aerospace" were discovered

  Scenario: a site with more postings than one search reaches is split by location and merged
    Given a Workday stand-in serving 600 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    When Discover runs on my sources
    Then 600 new jobs from "Acme Aerospace" were discovered, each with its Workday id
    And after the first search the stand-in was searched once per location, 5 locations
    And the source "workday-acme-External" recorded a good crawl of 600 postings

  Scenario: a site over the reach that offers no facet to split by gives what one search reaches
    Given a Workday stand-in serving 600 postings of "Acme Aerospace" as "acme/External"
    And the stand-in offers no facets
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    When Discover runs on my sources
    Then 500 new jobs from "Acme Aerospace" were discovered
    And the source "workday-acme-External" recorded a good crawl of 500 postings

  Scenario: an empty Workday site is a good crawl of nothing
    Given a Workday stand-in serving 0 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server}"
    When Discover runs on my sources
    Then the source "workday-acme-External" recorded a good crawl of 0 postings

  Scenario: the same job on Workday and on SmartRecruiters is one job
    Given a Workday stand-in serving 4 postings of "Acme Aerospace" as "acme/External"
    And the SmartRecruiters stand-in also posts the first 2 of them as "AcmeAero"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    And I ran "jobctrl sources add smartrecruiters AcmeAero --api-base {server} --name 'Acme Aerospace'"
    When Discover runs on my sources
    Then 4 new jobs from "Acme Aerospace" were discovered
    And 2 of them were observed on both sources

  Scenario Outline: a Workday site that misbehaves fails alone, writes nothing, and says why
    Given the sample job board is running
    And a Workday stand-in serving 25 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    And I added the sample board's Greenhouse board "globex"
    And the stand-in answers <answer>
    When Discover runs on my sources
    Then the workday family failed with "<code>" and nothing from "Acme Aerospace" was written
    And the source "workday-acme-External" recorded a failed crawl "<code>"
    And the greenhouse family still discovered 8 jobs from "Globex Corporation"

    Examples:
      | answer           | code               |
      | malformed        | source_unavailable |
      | an empty body    | source_unavailable |
      | the wrong shape  | source_unavailable |
      | a malformed item | source_unavailable |
      | 404              | source_unavailable |
      | 429              | transient_network  |
      | 503              | transient_network  |
      | slowly           | transient_network  |
      | a huge body      | source_unavailable |

  Scenario: three failed runs in a row quarantine the Workday source
    Given a Workday stand-in serving 3 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server}"
    And the stand-in answers 503
    When Discover runs on my sources three times
    Then "workday-acme-External" was quarantined for "consecutive_failures"
