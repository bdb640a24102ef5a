Feature: Any careers page (smart extract)
  A careers page of any shape is added by its URL.  Its postings are found by the schema.org
  JobPosting data on the page, on the pages it links to that look like postings, and on the pages
  its sitemap lists; robots.txt is honoured and at most 50 pages are read a run.  A posting page with
  no structured data is read for its main text and marked, so enrichment decides whether that text
  can be trusted.  What goes wrong fails that source alone.

  Scenario: postings carried by the careers page itself
    Given a careers page carrying 2 JobPostings of "Initech" in one graph
    When I run "jobctrl sources add smartextract {server}/careers --name Initech --api-base {server}"
    Then it exits 0 saying "smart-127.0.0.1-careers added"
    When Discover runs on my sources
    Then 2 new jobs from "Initech" were discovered, each read from its JSON-LD
    And the source "smart-127.0.0.1-careers" recorded a good crawl of 2 postings

  Scenario: postings on the pages the careers page links to
    Given a careers page linking to 3 posting pages of "Initech", an about page and another site
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 3 new jobs from "Initech" were discovered, each read from its JSON-LD
    And the about page and the other site were never requested

  Scenario: postings only the sitemap lists
    Given a careers page with no links and a sitemap listing 2 posting pages of "Initech" and a blog page
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 2 new jobs from "Initech" were discovered, each read from its JSON-LD
    And the blog page was never requested

  Scenario: a posting page without structured data is read for its text and marked
    Given a careers page linking to a posting page "Night Shift Operator" with only text, and to a page with one line
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 1 new jobs from "Initech" were discovered
    And the job "Night Shift Operator" is marked as read from its text, so enrichment reads its page itself
    When the run's enrichment pass runs
    Then the job "Night Shift Operator" is enriched with low confidence and Tailor is blocked

  Scenario: robots.txt keeps a posting page out; the others are read
    Given a careers page linking to 3 posting pages of "Initech", an about page and another site
    And the site's robots.txt disallows the second posting page
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 2 new jobs from "Initech" were discovered, each read from its JSON-LD
    And the second posting page was never requested

  Scenario: at most 50 pages are read a run
    Given a careers page linking to 60 posting pages of "Initech"
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 48 new jobs from "Initech" were discovered, each read from its JSON-LD
    And the site was asked for at most 50 pages

  Scenario: a broken JSON-LD block does not hide a good one
    Given a careers page carrying a broken JSON-LD block and 1 JobPosting of "Initech"
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then 1 new jobs from "Initech" were discovered, each read from its JSON-LD

  Scenario Outline: a careers page that misbehaves fails alone, writes nothing, and says why
    Given the sample job board is running
    And a careers page linking to 3 posting pages of "Initech", an about page and another site
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    And I added the sample board's Greenhouse board "globex"
    And the careers site answers <answer>
    When Discover runs on my sources
    Then the smartextract family failed with "<code>" and nothing from "Initech" was written
    And the source "smart-127.0.0.1-careers" recorded a failed crawl "<code>"
    And the greenhouse family still discovered 8 jobs from "Globex Corporation"

    Examples:
      | answer                                 | code               |
      | 404 on the careers page                | source_unavailable |
      | 503 on the careers page                | transient_network  |
      | slowly on the careers page             | transient_network  |
      | a huge careers page                    | source_unavailable |
      | a robots.txt that disallows everything | robots_disallowed  |
      | 503 on a posting page                  | transient_network  |

  Scenario: a careers page that is not HTML is a good crawl of nothing
    Given a careers page answering JSON
    And I ran "jobctrl sources add smartextract {server}/careers --name Initech"
    When Discover runs on my sources
    Then the source "smart-127.0.0.1-careers" recorded a good crawl of 0 postings
