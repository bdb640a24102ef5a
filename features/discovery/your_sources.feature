Feature: Your sources
  A user adds the boards of the employers they want to work for, by command line or API; Discover
  runs exactly the sources in the source registry, and the user's search applies to every family.

  Scenario: a Greenhouse board added from the command line is what Discover runs
    Given the sample job board is running
    When I run "jobctrl sources add greenhouse globex --name 'Globex Corporation' --api-base {board}"
    Then it exits 0 saying "greenhouse-globex added"
    And "jobctrl sources list --format json" lists "greenhouse-globex" as greenhouse, active, at the board
    When Discover runs on my sources
    Then 8 new jobs from "Globex Corporation" were discovered
    And only the board "globex" was crawled

  Scenario: a Discover of chosen sources crawls only those, not the rest of their family
    Given the sample job board is running
    And I added "greenhouse globex" and "greenhouse northwind" at the board
    When Discover runs on the source "greenhouse-globex" only
    Then only the board "globex" was crawled

  Scenario Outline: a source that cannot be crawled is refused and nothing is written
    When I run "jobctrl sources add <kind> <locator>"
    Then it exits 2 saying "<message>"
    And the job log is empty

    Examples:
      | kind       | locator                                             | message                          |
      | monster    | acme                                                | unknown source kind              |
      | workday    | https://acme.example.com/External                   | a Workday source is              |
      | workday    | https://acme.wd5.myworkdayjobs.com                   | names its site                   |
      | greenhouse | 'acme corp'                                         | board token must be letters      |
      | lever      | acme --api-base ftp://127.0.0.1/x                    | --api-base must be an http(s) URL |
      | careers    | https://acme.example.com/jobs                        | a careers source is              |

  Scenario: a removed source is neither listed nor crawled, and its jobs stay
    Given the sample job board is running
    And I added "greenhouse globex" and "lever initech" at the board
    And Discover ran on my sources
    When I run "jobctrl sources remove greenhouse-globex"
    Then it exits 0 saying "greenhouse-globex removed"
    And "jobctrl sources list --format json" lists only "lever-initech"
    When Discover runs on my sources
    Then only the board "initech" was crawled the second time
    And the jobs from "Globex Corporation" are still there
    And removing "greenhouse-globex" again says "was already removed"
    And removing "greenhouse-nobody" exits 2 saying "unknown_source"

  Scenario: adding the same source twice writes it once
    Given the sample job board is running
    And I added "greenhouse globex" and "lever initech" at the board
    When I run "jobctrl sources add greenhouse globex --name 'Globex Corporation' --api-base {board}"
    Then it exits 0 saying "already present"
    And the source registry holds 2 SourceConfigured events

  Scenario: the sources API adds, lists and removes
    Given the sample job board is running
    When the API is sent POST /v1/sources with kind "lever", URL "https://jobs.lever.co/initech/" and the board as API base
    Then the API answers 201 with source "lever-initech" of board "initech"
    And GET /v1/sources lists "lever-initech"
    When the API is sent DELETE /v1/sources/lever-initech
    Then the API answers 200 and GET /v1/sources lists nothing
    And DELETE /v1/sources/lever-nobody answers 404 "unknown_source"

  Scenario: the sources API adds a broad-board search, and says robots cannot gate it
    When the API is sent POST /v1/sources with the body {"kind": "jobspy", "tokenOrUrl": "indeed,linkedin", "keywords": ["platform engineer"], "locations": ["Berlin"], "resultsWanted": 15, "hoursOld": 48}
    Then the API answers 201 with the broad-board source "jobspy-indeed-linkedin" searching "platform engineer" in "Berlin"
    And GET /v1/sources lists "jobspy-indeed-linkedin"

  Scenario Outline: bad input to the sources API is a typed 422 and writes nothing
    When the API is sent POST /v1/sources with the body <body>
    Then the API answers 422 "<code>" and the job log is empty

    Examples:
      | body                                                        | code            |
      | {"kind": "monster", "tokenOrUrl": "acme"}                   | invalid_source  |
      | {"kind": "workday", "tokenOrUrl": "https://acme.example/x"} | invalid_source  |
      | {"kind": "greenhouse", "tokenOrUrl": "acme", "apiBase": "javascript:alert(1)"} | invalid_source |
      | {"kind": "jobspy", "tokenOrUrl": "indeed"}                  | invalid_source  |
      | {"kind": "jobspy", "tokenOrUrl": "indeed", "keywords": ["x"], "hoursOld": 0} | invalid_source |
      | {"kind": "lever", "tokenOrUrl": "acme", "keywords": ["x"]}  | invalid_source  |
      | {"kind": "greenhouse"}                                      | invalid_request |
      | {"kind": "greenhouse", "tokenOrUrl": "acme", "extra": 1}    | invalid_request |

  Scenario: a legacy sources.json is imported once and then retired
    Given the sample job board is running
    And a sources.json in the home naming the boards "globex" and "hooli"
    When I run "jobctrl sources list --format json"
    Then it lists "greenhouse-globex" and "ashby-hooli"
    And the home holds sources.json.imported and no sources.json
    When I run "jobctrl sources list --format json"
    Then it lists "greenhouse-globex" and "ashby-hooli"
    And the source registry holds 2 SourceConfigured events

  Scenario: the user's search applies to every family after fetching
    Given the sample job board is running
    And I added "greenhouse globex" and "lever initech" at the board
    When Discover runs on my sources searching "Engineer" in "London", remote accepted
    Then every job discovered says "Engineer" in its title or description and is in London or remote
    And at least one job came from each of "Globex Corporation" and "Initech"
