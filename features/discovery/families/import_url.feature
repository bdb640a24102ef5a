Feature: One job from a URL
  A user pastes the URL of one posting.  Each family recognises its own posting URLs and reads that
  posting from its API; any other page is read for the schema.org JobPosting data it carries.  The
  posting is checked against the jobs we already have, and a URL that cannot be imported says why and
  writes nothing.

  Scenario Outline: a posting URL of an ATS family is imported from that family's API
    Given a <vendor> stand-in serving 3 postings of "Acme Aerospace" as "<token>"
    When I run "jobctrl jobs add <url> --api-base {server}"
    Then it exits 0 saying "added"
    And 1 new jobs from "Acme Aerospace" were discovered
    And the imported job is the stand-in's posting 2

    Examples:
      | vendor          | token          | url                                                               |
      | Workday         | acme/External  | https://acme.wd5.myworkdayjobs.com/External{workday_path:2}        |
      | Workday         | acme/External  | https://acme.wd5.myworkdayjobs.com/en-US/External{workday_path:2}  |
      | SmartRecruiters | AcmeAero       | https://jobs.smartrecruiters.com/AcmeAero/{native:2}-{slug:2}      |
      | Workable        | acme           | https://apply.workable.com/acme/j/{native:2}/                      |
      | Recruitee       | acme           | https://acme.recruitee.com/o/{slug:2}                              |
      | Personio        | acme           | https://acme.jobs.personio.de/job/{personio:2}                     |

  Scenario: any other page is read for its JobPosting data
    Given a careers page at "/careers/jobs/staff-engineer" carrying a JobPosting "Staff Engineer" of "Initech"
    When I run "jobctrl jobs add {server}/careers/jobs/staff-engineer"
    Then it exits 0 saying "added: Staff Engineer at Initech (smartextract)"
    And 1 new jobs from "Initech" were discovered

  Scenario: a posting we already discovered is the same job, not a new one
    Given a SmartRecruiters stand-in serving 3 postings of "Acme Aerospace" as "AcmeAero"
    And I ran "jobctrl sources add smartrecruiters AcmeAero --api-base {server} --name 'Acme Aerospace'"
    And Discover ran on my sources
    When I run "jobctrl jobs add https://jobs.smartrecruiters.com/AcmeAero/{native:2}-{slug:2} --api-base {server}"
    Then it exits 0 saying "already known (same_job)"
    And 3 new jobs from "Acme Aerospace" were discovered

  Scenario: importing the same URL twice is one job
    Given a Workable stand-in serving 3 postings of "Acme Aerospace" as "acme"
    And I ran "jobctrl jobs add https://apply.workable.com/acme/j/{native:1} --api-base {server}"
    When I run "jobctrl jobs add https://apply.workable.com/acme/j/{native:1} --api-base {server}"
    Then it exits 0 saying "already known (same_job)"
    And 1 new jobs from "Acme Aerospace" were discovered

  Scenario Outline: a URL that cannot be imported says why and writes nothing
    Given a SmartRecruiters stand-in serving 3 postings of "Acme Aerospace" as "AcmeAero"
    And a careers page at "/careers/jobs/about" carrying no JobPosting
    And the careers site's robots.txt disallows "/private/"
    And a careers page at "/private/jobs/1" carrying a JobPosting "Secret Engineer" of "Initech"
    When I run "jobctrl jobs add <url>"
    Then it exits 2 saying "<code>"
    And nothing was written

    Examples:
      | url                                                                          | code                |
      | ftp://example.org/jobs/1                                                     | unsupported_url     |
      | https://acme.wd5.myworkdayjobs.com/External                                  | unsupported_url     |
      | https://jobs.smartrecruiters.com/AcmeAero                                    | unsupported_url     |
      | https://jobs.smartrecruiters.com/AcmeAero/999-no-such-job --api-base {server} | not_a_posting       |
      | {server}/careers/jobs/about                                                  | not_a_posting       |
      | {server}/careers/jobs/gone                                                   | posting_unreachable |
      | {server}/private/jobs/1                                                      | robots_disallowed   |
      | http://10.0.0.7/jobs/1                                                       | unsafe_destination  |

  Scenario Outline: a family API that misbehaves is unreachable, and nothing is written
    Given a SmartRecruiters stand-in serving 3 postings of "Acme Aerospace" as "AcmeAero"
    And the stand-in answers <answer>
    When I run "jobctrl jobs add https://jobs.smartrecruiters.com/AcmeAero/{native:1}-x --api-base {server}"
    Then it exits 2 saying "posting_unreachable"
    And nothing was written

    Examples:
      | answer          |
      | 503             |
      | 429             |
      | malformed       |
      | the wrong shape |

  Scenario: the API imports one posting, then answers the same job again
    Given a Workday stand-in serving 3 postings of "Acme Aerospace" as "acme/External"
    When the API is sent POST /v1/jobs/import-url with "https://acme.wd5.myworkdayjobs.com/External{workday_path:3}" and the stand-in as API base
    Then the API answers 201 with a new "workday" job titled like the stand-in's posting 3
    And its preparation is queued for the next Discover run, for "temporal_unavailable"
    When the API is sent POST /v1/jobs/import-url with "https://acme.wd5.myworkdayjobs.com/External{workday_path:3}" and the stand-in as API base
    Then the API answers 200 with the same job
    And 1 new jobs from "Acme Aerospace" were discovered

  Scenario: a job imported while no worker runs joins the next Discover run, once
    Given a Workday stand-in serving 3 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl jobs add https://acme.wd5.myworkdayjobs.com/External{workday_path:2} --api-base {server}"
    Then it exits 0 saying "queued for the next Discover run"
    When Discover runs on my sources
    Then the imported job is a member of that Discover run, observed in it
    When Discover runs on my sources again
    Then the imported job is a member of the first Discover run only

  Scenario: the next Discover plan reads the import queue and its jobs' memberships, not the whole log
    Given a Workday stand-in serving 40 postings of "Acme Aerospace" as "acme/External"
    And I ran "jobctrl sources add workday https://acme.wd5.myworkdayjobs.com/External --api-base {server} --name 'Acme Aerospace'"
    And Discover ran on my sources
    And a careers page at "/careers/jobs/staff-engineer" carrying a JobPosting "Staff Engineer" of "Initech"
    And I ran "jobctrl jobs add {server}/careers/jobs/staff-engineer"
    When the next Discover run's plan looks for queued imports
    Then it finds the imported job only
    And it read only the import queue and the imported job's memberships, among 41 jobs in the log

  Scenario Outline: the API refuses a URL it cannot import with a typed error and writes nothing
    Given a SmartRecruiters stand-in serving 3 postings of "Acme Aerospace" as "AcmeAero"
    And the stand-in answers 503
    When the API is sent POST /v1/jobs/import-url with "<url>" and the stand-in as API base
    Then the API answers <status> "<code>"
    And nothing was written

    Examples:
      | url                                                 | status | code                |
      | mailto:jobs@example.org                             | 422    | unsupported_url     |
      | https://jobs.smartrecruiters.com/AcmeAero/{native:1} | 502    | posting_unreachable |
