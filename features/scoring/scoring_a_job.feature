Feature: Scoring a job against the candidate profile
  Requirements are extracted from the posting and each is matched to profile evidence ids.  The
  offline rule-based provider is the default: no network, same answer every time.

  Scenario: A scored job records its evidence ledger, fit band and keywords
    When job "job-1" is scored
    Then job "job-1" has score version 1
    And requirement "Experience with PostgreSQL and AWS" is "direct" citing "skill-postgres"
    And requirement "5+ years of Python experience" is "direct" citing "exp-acme-1"
    And requirement "Kubernetes" is "missing" citing nothing
    And the keywords include "python, postgresql, aws, kubernetes"
    And the recorded fit score follows the formula from the ledger

  Scenario: A related technology counts as transferable with its evidence
    Given the posting also offers "Experience with Azure"
    When job "job-1" is scored
    Then requirement "Experience with Azure" is "transferable" citing "skill-gcp"

  Scenario: A work-authorization requirement the profile cannot meet caps the score at 4
    Given the candidate is authorized to work in the "United Kingdom" only
    And the posting also requires "Must be authorized to work in the US"
    When job "job-1" is scored
    Then requirement "Must be authorized to work in the US" is "blocked" citing nothing
    And the score is at most 4 and the job is marked ineligible

  Scenario: A right-to-work line the profile says nothing about is not a blocker
    Given the candidate has no work authorization on file
    And the posting also requires "Must be authorized to work in the US"
    When job "job-1" is scored
    Then requirement "Must be authorized to work in the US" is "not_assessed" citing nothing
    And the job is not marked ineligible

  Scenario: A posted salary never becomes a blocker
    Given the candidate has no work authorization on file
    And the posting also requires "Salary: $80,000 - $90,000 per year"
    When job "job-1" is scored
    Then requirement "Salary: $80,000 - $90,000 per year" is "not_assessed" citing nothing
    And the job is not marked ineligible

  Scenario: Evidence the profile does not hold is dropped from provider output
    Given the provider cites evidence "invented-1" for every requirement
    When job "job-1" is scored
    Then no ledger row cites "invented-1"
    And no requirement is claimed as met without evidence

  Scenario: Every model call reports its usage for the spend ledger
    When job "job-1" is scored
    Then 2 model calls were reported with model "local-offline" and positive token counts

  Scenario: A current score is reused without another model call
    Given job "job-1" was scored
    When job "job-1" is scored
    Then job "job-1" has score version 1
    And 2 model calls were reported with model "local-offline" and positive token counts

  Scenario: A score made under earlier scoring prompts is made again, once
    Given job "job-1" was scored under the scoring prompts "score-fit-assessment-jobctrl-v1"
    When job "job-1" is scored
    And job "job-1" is scored
    Then job "job-1" has score version 2
    And the current score of job "job-1" was made under the current scoring prompts
    And 4 model calls were reported with model "local-offline" and positive token counts

  Scenario: A changed posting is scored as a new version
    Given job "job-1" was scored
    And the posting also offers "Experience with Azure"
    When job "job-1" is scored
    Then job "job-1" has score version 2
    And 4 model calls were reported with model "local-offline" and positive token counts

  Scenario: A posting without a description cannot be scored
    When job "job-2" is scored with an empty description
    Then the command is refused with "missing_input" and nothing is written

  Scenario: An unsafe job id is refused
    When job "../../etc" is scored
    Then the command is refused with "invalid_score_request" and nothing is written
