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

  Scenario Outline: Names that differ only in form are one application
    Given a prepared job "job-5" at "<employer>" for "<role>"
    And a dry run of "job-5" completed with full coverage
    And the user approved submitting "job-5"
    And a prepared job "job-6" at "<same employer>" for "<same role>"
    And a dry run of "job-6" completed with full coverage
    And the user approved submitting "job-6"
    And a live run of "job-5" was claimed
    When a live run of "job-6" is claimed
    Then the claim is refused with "repeat_application"

    Examples:
      | employer | role                      | same employer      | same role                  |
      | Globex   | Senior Platform Engineer  | GLOBEX, Inc.       | Platform Senior Eng        |
      | Initech  | Sr. Software Engineer     | Initech Ltd        | software engineer, senior  |
      | Umbrella | ML Engineer II            | Umbrella Corp.     | Machine Learning Eng 2     |

  Scenario: Different roles at one employer stay different applications
    Given a prepared job "job-7" at "Globex" for "Senior Platform Engineer"
    And a dry run of "job-7" completed with full coverage
    And the user approved submitting "job-7"
    And a prepared job "job-8" at "Globex Inc." for "Senior Platform Engineering Manager"
    And a dry run of "job-8" completed with full coverage
    And the user approved submitting "job-8"
    And a live run of "job-7" was claimed
    When a live run of "job-8" is claimed
    Then the claim succeeds
