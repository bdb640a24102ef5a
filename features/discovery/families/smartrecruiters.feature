Feature: SmartRecruiters posting API
  A SmartRecruiters company is added by its identifier and read through the public Posting API: the
  postings list, then one detail per posting for the job ad; what goes wrong fails that source alone.

  Scenario: a SmartRecruiters board added from its public URL is discovered with its own ids
    Given a SmartRecruiters stand-in serving 12 postings of "Tailspin Toys" as "TailspinToys"
    When I run "jobctrl sources add smartrecruiters https://jobs.smartrecruiters.com/TailspinToys --name 'Tailspin Toys' --api-base {server}"
    Then it exits 0 saying "smartrecruiters-TailspinToys added"
    When Discover runs on my sources
    Then 12 new jobs from "Tailspin Toys" were discovered, each with its SmartRecruiters id
    And the source "smartrecruiters-TailspinToys" recorded a good crawl of 12 postings

  Scenario: a second run observes the same jobs again and creates none
    Given a SmartRecruiters stand-in serving 6 postings of "Tailspin Toys" as "TailspinToys"
    And I ran "jobctrl sources add smartrecruiters TailspinToys --api-base {server} --name 'Tailspin Toys'"
    And Discover ran on my sources
    When Discover runs on my sources again
    Then 6 new jobs from "Tailspin Toys" were discovered
    And the source "smartrecruiters-TailspinToys" recorded a good crawl of 6 postings

  Scenario: an empty SmartRecruiters board is a good crawl of nothing
    Given a SmartRecruiters stand-in serving 0 postings of "Tailspin Toys" as "TailspinToys"
    And I ran "jobctrl sources add smartrecruiters TailspinToys --api-base {server}"
    When Discover runs on my sources
    Then the source "smartrecruiters-TailspinToys" recorded a good crawl of 0 postings

  Scenario: a posting gone between the list and its detail is skipped; the others are kept
    Given a SmartRecruiters stand-in serving 5 postings of "Tailspin Toys" as "TailspinToys"
    And the stand-in's first posting is gone
    And I ran "jobctrl sources add smartrecruiters TailspinToys --api-base {server} --name 'Tailspin Toys'"
    When Discover runs on my sources
    Then 4 new jobs from "Tailspin Toys" were discovered

  Scenario Outline: a SmartRecruiters board that misbehaves fails alone, writes nothing, and says why
    Given the sample job board is running
    And a SmartRecruiters stand-in serving 8 postings of "Tailspin Toys" as "TailspinToys"
    And I ran "jobctrl sources add smartrecruiters TailspinToys --api-base {server} --name 'Tailspin Toys'"
    And I added the sample board's Greenhouse board "globex"
    And the stand-in answers <answer>
    When Discover runs on my sources
    Then the smartrecruiters family failed with "<code>" and nothing from "Tailspin Toys" was written
    And the source "smartrecruiters-TailspinToys" recorded a failed crawl "<code>"
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
