Feature: Workable job widget API
  A Workable account is added by its subdomain and read through the public widget API in one request,
  descriptions included; what goes wrong fails that source alone.

  Scenario: a Workable board added from its public URL is discovered with its own ids
    Given a Workable stand-in serving 12 postings of "Tailspin Toys" as "tailspin"
    When I run "jobctrl sources add workable https://apply.workable.com/tailspin/ --name 'Tailspin Toys' --api-base {server}"
    Then it exits 0 saying "workable-tailspin added"
    When Discover runs on my sources
    Then 12 new jobs from "Tailspin Toys" were discovered, each with its Workable id
    And the source "workable-tailspin" recorded a good crawl of 12 postings

  Scenario: a second run observes the same jobs again and creates none
    Given a Workable stand-in serving 6 postings of "Tailspin Toys" as "tailspin"
    And I ran "jobctrl sources add workable tailspin --api-base {server} --name 'Tailspin Toys'"
    And Discover ran on my sources
    When Discover runs on my sources again
    Then 6 new jobs from "Tailspin Toys" were discovered
    And the source "workable-tailspin" recorded a good crawl of 6 postings

  Scenario: an empty Workable board is a good crawl of nothing
    Given a Workable stand-in serving 0 postings of "Tailspin Toys" as "tailspin"
    And I ran "jobctrl sources add workable tailspin --api-base {server}"
    When Discover runs on my sources
    Then the source "workable-tailspin" recorded a good crawl of 0 postings

  Scenario Outline: a Workable board that misbehaves fails alone, writes nothing, and says why
    Given the sample job board is running
    And a Workable stand-in serving 8 postings of "Tailspin Toys" as "tailspin"
    And I ran "jobctrl sources add workable tailspin --api-base {server} --name 'Tailspin Toys'"
    And I added the sample board's Greenhouse board "globex"
    And the stand-in answers <answer>
    When Discover runs on my sources
    Then the workable family failed with "<code>" and nothing from "Tailspin Toys" was written
    And the source "workable-tailspin" recorded a failed crawl "<code>"
    And the greenhouse family still discovered 8 jobs from "Globex Corporation"

    Examples:
      | answer | code |
      | malformed | source_unavailable |
      | an empty body | source_unavailable |
      | the wrong shape | source_unavailable |
      | a malformed item | source_unavailable |
      | 404 | source_unavailable |
      | 429 | transient_network |
      | 503 | transient_network |
      | slowly | transient_network |
      | a huge body | source_unavailable |
