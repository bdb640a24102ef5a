Feature: Supervised contact research
  Research runs only when the user asks, only on pages the user supplied, and only proposes:
  a person becomes a contact when the user confirms them.

  Background:
    Given a careers site that names "Jane Doe" as Head of Talent and "Bob Smith" as Engineering Manager
    And the user started research task "t1" on employer "Acme"

  Scenario: Candidates land in review and none becomes a contact on its own
    When research runs on the team page the user supplied
    Then the task needs review with 2 candidates
    And no contact exists

  Scenario: Hosts the user did not supply are never requested
    When research runs on the team page and on a page of another host
    Then the other host's page is recorded as "rejected" with reason "host_not_supplied_by_user"
    And the careers site served no request for the other page

  Scenario Outline: Protected and unsafe URLs are never fetched
    When research runs on "<url>"
    Then that URL is recorded as "<outcome>" with reason "<reason>"

    Examples:
      | url                                   | outcome                 | reason                    |
      | https://acme.example/login?next=/team | manual_capture_required | protected_url             |
      | https://acme.example/sso/team         | manual_capture_required | protected_url             |
      | http://169.254.169.254/latest/meta    | rejected                | blocked_destination       |
      | http://10.0.0.5/team                  | rejected                | blocked_destination       |
      | ftp://acme.example/team               | rejected                | not_a_web_url             |

  Scenario: robots.txt is honoured
    When research runs on the team page and on the private page robots.txt disallows
    Then the private page is recorded as "robots_disallowed"
    And the careers site served no request for the private page

  Scenario: Confirming a candidate makes them a contact, once
    Given research ran on the team page the user supplied
    When the user confirms "Jane Doe"
    Then a contact exists whose name reads "Jane Doe"
    And confirming "Jane Doe" again is refused

  Scenario: Research needs an employer or a job
    Then starting research with neither employer nor job is refused and writes nothing
