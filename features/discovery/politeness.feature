Feature: Politeness gateway
  Every outbound crawl request goes through one gateway that obeys robots.txt as the reference
  table says, paces and limits each host, spends a per-run budget and says honestly who it is.

  Scenario Outline: robots.txt fetch results decide the verdict and how long it is cached
    Given a career site whose robots.txt answers <answer>
    When the enrichment policy asks whether "/jobs/1" may be fetched
    Then the robots verdict says <verdict>
    And the robots verdict is cached for <minutes> minutes

    Examples:
      | answer             | verdict               | minutes |
      | 404                | allowed               | 60      |
      | 410                | allowed               | 60      |
      | 500                | disallowed            | 5       |
      | 503                | disallowed            | 5       |
      | slowly             | disallowed            | 5       |
      | connection refused | allowed with warning  | 60      |
      | an unknown host    | allowed with warning  | 60      |
      | from 10.1.2.3      | disallowed            | 5       |

  Scenario: a 2xx robots.txt is parsed and obeyed
    Given a career site whose robots.txt disallows "/private/" for JobCtrl
    When the enrichment policy asks whether "/private/job-9" may be fetched
    Then the robots verdict says disallowed
    And fetching "/private/job-9" under the enrichment policy fails with "robots_disallowed"
    And fetching "/jobs/1" under the enrichment policy succeeds

  Scenario: a fail-closed verdict is fetched again after five minutes, an allow after an hour
    Given a career site whose robots.txt answers 500
    When the enrichment policy asks whether "/jobs/1" may be fetched at minutes 0, 4, 6
    Then robots.txt was fetched 2 times

  Scenario: documented ATS APIs are exempt from robots.txt but not from the budget
    Given a career site whose robots.txt disallows "/" for JobCtrl
    When 3 requests for "/jobs/1" are made under the ATS policy with a budget of 2
    Then 2 requests reached the site
    And the third request failed with "request_budget_exhausted"

  Scenario: unsafe destinations are refused before anything is sent
    Given a career site whose robots.txt answers 404
    Then fetching "http://169.254.169.254/latest/meta-data" fails with "unsafe_destination"
    And fetching "http://10.0.0.7/jobs" fails with "unsafe_destination"
    And fetching the site without the local-server allowance fails with "unsafe_destination"

  Scenario: requests to one host are paced and never overlap
    Given a career site whose robots.txt answers 404
    And the site answers slowly on "/slow"
    When 3 requests for "/slow" are made at once under a policy with 0.3 s interval and 1 concurrent request
    Then no two requests to the site were in flight together
    And consecutive requests started at least 0.3 s apart

  Scenario: redirects are bounded and each hop is checked
    Given a career site whose robots.txt answers 404
    And "/loop" redirects to itself
    And "/to-metadata" redirects to "http://169.254.169.254/"
    Then fetching "/loop" under the enrichment policy fails with "source_unavailable"
    And fetching "/to-metadata" under the enrichment policy fails with "unsafe_destination"

  Scenario: huge responses are refused whole
    Given a career site whose robots.txt answers 404
    And "/huge" serves 3000000 bytes
    Then fetching "/huge" under a policy capped at 1000000 bytes fails with "source_unavailable"

  Scenario: the User-Agent is honest and configurable
    Given a career site whose robots.txt answers 404
    When "/jobs/1" is fetched by an agent with contact "mailto:ops@example.org"
    Then the site saw the User-Agent "JobCtrl/<version> (+mailto:ops@example.org)"
    And a browser-like User-Agent is refused as a configuration error
    And a policy that bypasses third-party controls is refused as a configuration error
