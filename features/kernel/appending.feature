Feature: Appending events to the job log
  Every fact JobCtrl learns is appended to one log.  Each stream (a job, a run) has its own
  version so two writers cannot both extend it from the same point, and a retry of a write
  that already happened changes nothing.

  Background:
    Given an empty job log

  Scenario: Events are appended in order
    When 2 JobDiscovered events are appended to stream "job-1" expecting version 0
    Then stream "job-1" is at version 2
    And the log holds 2 events

  Scenario: A writer that read an old version is refused
    Given 1 JobDiscovered event was appended to stream "job-1"
    When 1 JobDiscovered event is appended to stream "job-1" expecting version 0
    Then the append is refused as a concurrency conflict
    And the log holds 1 event

  Scenario: Retrying a stored write appends nothing
    Given a batch of 3 JobDiscovered events was appended to stream "job-1"
    When the same batch is appended again
    Then the retry reports the stored positions
    And the log holds 3 events

  Scenario: A batch across streams is all or nothing
    Given 1 JobDiscovered event was appended to stream "job-2"
    When one batch appends to stream "job-1" expecting version 0 and to stream "job-2" expecting version 0
    Then the append is refused as a concurrency conflict
    And stream "job-1" is at version 0
    And the log holds 1 event

  Scenario: Positions follow commit order across streams
    When events are appended to streams "a", "b", "a", "c" in that order
    Then reading the whole log returns them in that order with growing positions
