Feature: Snoozing a follow-up
  An application's follow-up falls due a number of days after applying, until an outcome settles it.
  The user can put it off: a snoozed follow-up is not due until its date.

  Background:
    Given the user applied to "job-1" at "Acme" 10 days ago
    And follow-ups fall due 7 days after applying

  Scenario: A snoozed follow-up is not due until its date
    Then the follow-up of "job-1" is due
    When the user snoozes the follow-up of "job-1" for 4 days
    Then the follow-up of "job-1" is not due
    When 4 days pass
    Then the follow-up of "job-1" is due

  Scenario: A settled application has no follow-up to snooze
    Given the user recorded the outcome "interview" for "job-1"
    Then snoozing the follow-up of "job-1" for 4 days is refused with "follow_up_not_pending" and writes nothing

  Scenario: A snooze into the past is refused
    Then snoozing the follow-up of "job-1" for -1 days is refused with "invalid_snooze" and writes nothing
