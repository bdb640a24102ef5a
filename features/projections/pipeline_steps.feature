Feature: Pipeline steps are folded attempt by attempt
  Each orchestration step of a Discover run (a source family, an enrichment pass, ...) has one row.
  Temporal may retry a step, and reports can arrive late or twice; the row always shows the newest
  attempt and the first result of that attempt, and only allowlisted codes and counts.

  Scenario: A higher attempt replaces the row
    Given step "ats" attempt 1 failed
    When step "ats" attempt 2 completed
    Then step "ats" shows attempt 2 as "succeeded"

  Scenario: A late report of a lower attempt is ignored
    Given step "ats" attempt 2 started
    When step "ats" attempt 1 failed
    Then step "ats" shows attempt 2 as "running"

  Scenario: Within one attempt the first terminal result wins
    Given step "ats" attempt 1 completed
    When step "ats" attempt 1 failed
    Then step "ats" shows attempt 1 as "succeeded"

  Scenario: A queued report never moves a step backwards
    Given step "ats" attempt 1 started
    When step "ats" attempt 1 queued
    Then step "ats" shows attempt 1 as "running"

  Scenario: Step details keep only allowlisted codes and counts
    Given step "ats" attempt 1 completed with detail "jobs_observed" and count 12
    And step "lever" attempt 1 completed with detail "https_private_host_dump" and count 3
    Then step "ats" shows detail "jobs_observed" with count 12
    And step "lever" shows detail "unlisted" with count 3
