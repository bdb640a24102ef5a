Feature: Broad job boards through JobSpy
  A broad-board source is a search (keywords x locations) over some boards (Indeed, LinkedIn, ...),
  read through the JobSpy library. The library owns its HTTP, so robots.txt cannot gate it; the project
  budgets and paces each search it asks for. The search is split into units, one per board, keyword
  and location, and each unit done is recorded, so a run that dies resumes at the next unit. Broad
  boards are off until the user turns them on. JobSpy itself is replaced by a stand-in that answers
  with the library's own rows.

  Scenario: a broad-board search is read unit by unit, with each board as the postings' source
    Given broad boards are turned on
    And Indeed lists 3 "platform engineer" postings of "Northwind Traders" in "Berlin"
    And Indeed lists 2 "platform engineer" postings of "Northwind Traders" in "London"
    And LinkedIn lists 2 "platform engineer" postings of "Contoso Pharma" in "Berlin"
    When I run "jobctrl sources add jobspy indeed,linkedin --keyword 'platform engineer' --location Berlin --location London --results 10 --hours-old 72"
    Then it exits 0 saying "jobspy-indeed-linkedin added (broad boards indeed,linkedin; robots: not_gated_library_owns_http)"
    When Discover runs on my sources
    Then 5 new jobs from "Northwind Traders" were discovered
    And 2 new jobs from "Contoso Pharma" were discovered
    And JobSpy ran 4 searches of at most 10 results, 72 hours old
    And 4 search units of "jobspy-indeed-linkedin" were recorded as done
    And the jobs were observed with "indeed" and "linkedin" as their sources
    And the source "jobspy-indeed-linkedin" recorded a good crawl of 7 postings

  Scenario: a run that dies in its third search unit resumes at that unit
    Given broad boards are turned on
    And Indeed lists 2 "data engineer" postings of "Northwind Traders" in "Berlin"
    And Indeed lists 2 "data engineer" postings of "Northwind Traders" in "Paris"
    And Indeed lists 2 "data engineer" postings of "Northwind Traders" in "Rome"
    And Indeed lists 2 "data engineer" postings of "Northwind Traders" in "Oslo"
    And I ran "jobctrl sources add jobspy indeed --keyword 'data engineer' --location Berlin --location Paris --location Rome --location Oslo"
    And the worker dies during JobSpy's third search
    When Discover runs on my sources
    Then 4 new jobs from "Northwind Traders" were discovered
    And 2 search units of "jobspy-indeed" were recorded as done
    When the same run is retried
    Then JobSpy was asked again only for "Rome" and "Oslo"
    And 8 new jobs from "Northwind Traders" were discovered
    And 4 search units of "jobspy-indeed" were recorded as done
    And all 8 jobs are members of the Discover execution

  Scenario: broad boards are off by default, and Discover does not reach them
    Given Indeed lists 2 "platform engineer" postings of "Northwind Traders" in "Berlin"
    When I run "jobctrl sources add jobspy indeed --keyword 'platform engineer'"
    Then it exits 0 saying "broad boards are off"
    When Discover runs on my sources
    Then JobSpy was not asked for anything
    And 0 new jobs from "Northwind Traders" were discovered

  Scenario: a broad-board source needs a keyword and known boards; nothing is written otherwise
    When I run "jobctrl sources add jobspy indeed"
    Then it exits 2 saying "invalid_source: a broad-board source needs at least one --keyword"
    When I run "jobctrl sources add jobspy monster --keyword python"
    Then it exits 2 saying "is a comma list of sites"
    When I run "jobctrl sources add jobspy indeed --keyword python --results 0"
    Then it exits 2 saying "--results must be 1 to 200"
    And no source was added

  Scenario: the same job on Workday and on a broad board is one job, observed twice
    Given broad boards are turned on
    And a Workday stand-in serving 4 postings of "Acme Aerospace" as "acme/External"
    And Indeed also lists the first 2 of them for "engineer" at its own URLs
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    And I ran "jobctrl sources add jobspy indeed --keyword engineer"
    When Discover runs on my sources
    Then 4 new jobs from "Acme Aerospace" were discovered
    And 2 of them were observed on both sources

  Scenario: one board failing leaves the other board's units recorded
    Given broad boards are turned on
    And Indeed lists 3 "platform engineer" postings of "Northwind Traders" in "Berlin"
    And LinkedIn lists 2 "platform engineer" postings of "Contoso Pharma" in "Berlin"
    And JobSpy answers for linkedin 429
    And I ran "jobctrl sources add jobspy indeed,linkedin --keyword 'platform engineer' --location Berlin"
    When Discover runs on my sources
    Then 3 new jobs from "Northwind Traders" were discovered
    And 1 search units of "jobspy-indeed-linkedin" were recorded as done
    And the source "jobspy-indeed-linkedin" recorded a good crawl of 3 postings

  Scenario Outline: a broad board that misbehaves fails alone, writes nothing, and says why
    Given the sample job board is running
    And broad boards are turned on
    And Indeed lists 3 "platform engineer" postings of "Northwind Traders" in "Berlin"
    And I ran "jobctrl sources add jobspy indeed --keyword 'platform engineer' --location Berlin"
    And I added the sample board's Greenhouse board "globex"
    And JobSpy answers for indeed <answer>
    When Discover runs on my sources
    Then the jobspy family failed with "<code>" and nothing from "Northwind Traders" was written
    And no search unit of "jobspy-indeed" was recorded as done
    And the source "jobspy-indeed" recorded a failed crawl "<code>"
    And the greenhouse family still discovered 8 jobs from "Globex Corporation"

    Examples:
      | answer                 | code               |
      | 429                    | transient_network  |
      | 503                    | transient_network  |
      | a parse error          | source_unavailable |
      | rows without a URL     | source_unavailable |
      | the wrong columns      | source_unavailable |
      | a crash in the library | source_unavailable |

  Scenario: a board with nothing for the search is a good crawl of nothing
    Given broad boards are turned on
    And I ran "jobctrl sources add jobspy indeed --keyword 'lighthouse keeper' --location Berlin"
    When Discover runs on my sources
    Then the source "jobspy-indeed" recorded a good crawl of 0 postings
    And 1 search units of "jobspy-indeed" were recorded as done
