Feature: Aggregates keep their history in the job log
  A job's state is the fold of its events.  Two copies of the same job cannot both extend it,
  and a job loaded from a snapshot is the same job as one rebuilt from every event.

  Background:
    Given an empty job log
    And job "j1" was discovered at "Acme" and hidden twice

  Scenario: A stale copy of a job cannot overwrite a newer one
    Given two copies of job "j1" are loaded
    When the first copy hides the job as "duplicate" and is saved
    And the second copy hides the job as "spam" and is saved
    Then the second save is refused as a concurrency conflict
    And job "j1" is at version 4 with reasons "first, second, duplicate"

  Scenario: A job loaded from its snapshot equals the job replayed from its events
    When job "j5" is discovered and hidden 4 times, saved event by event with snapshots every 3 events
    Then snapshots of job "j5" are stored at version 3
    And job "j5" loaded from its snapshot equals job "j5" replayed from its events

  Scenario: Saving a job and a refused job together writes neither
    Given job "j2" was discovered at "Beta" and hidden twice
    And a copy of job "j2" that is one event behind
    When job "j3" is discovered and saved together with the stale copy of "j2"
    Then the save is refused as a concurrency conflict
    And job "j3" does not exist
