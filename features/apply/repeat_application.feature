Feature: Repeat-application protection
  Two postings of the same role at the same employer (a repost, a duplicate listing) are one
  application: once one job was claimed live, another job with that employer and role is refused,
  unless the user grants a one-use override for it.

  Background:
    Given a prepared job "job-1" at "Acme Inc." for "Data Engineer"
    And a dry run of "job-1" completed with full coverage
    And the user approved submitting "job-1"
    And a live run of "job-1" was claimed

  Scenario: The same employer and role under another job is refused
    Given a prepared job "job-2" at "ACME" for "data  engineer"
    And a dry run of "job-2" completed with full coverage
    And the user approved submitting "job-2"
    When a live run of "job-2" is claimed
    Then the claim is refused with "repeat_application"
    And the log holds 0 ApplicationIdentityClaimed events for "job-2"

  Scenario: Another role at the same employer is a different application
    Given a prepared job "job-3" at "Acme Inc." for "Platform Engineer"
    And a dry run of "job-3" completed with full coverage
    And the user approved submitting "job-3"
    When a live run of "job-3" is claimed
    Then the claim succeeds

  Scenario: A dry run of the repeat is still allowed (it never submits)
    Given a prepared job "job-2" at "Acme" for "Data Engineer"
    When a batch dry claim of "job-2" is made
    Then the claim succeeds

  Scenario: An override allows exactly one more live claim
    Given a prepared job "job-2" at "Acme" for "Data Engineer"
    And a dry run of "job-2" completed with full coverage
    And the user approved submitting "job-2"
    And a prepared job "job-4" at "Acme" for "Data Engineer"
    And a dry run of "job-4" completed with full coverage
    And the user approved submitting "job-4"
    When the user grants a repeat-application override for "job-2"
    And a live run of "job-2" is claimed
    Then the claim succeeds
    And the log holds 1 ApplicationIdentityClaimed events for "job-2"
    When a live run of "job-4" is claimed
    Then the claim is refused with "repeat_application"
