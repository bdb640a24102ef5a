Feature: Active items are the three-state recovery gate
  The runtime inventory comes only from fresh worker heartbeats. A positive total means work is
  still running, zero permits a new Discover run, and null means nobody can tell.

  Scenario: A busy worker reports its remaining work
    Given a worker with 4 slots running 3 "score" activities
    When the operations snapshot is read
    Then activeItemsTotal is 3
    And activeStageCounts.score is 3
    And capacity.slotsAvailable is 1
    And capacity.queue.backlogCount is 0
    And freshness is "fresh"

  Scenario: An idle fresh worker reports exactly zero
    Given an idle worker with a fresh heartbeat
    When the operations snapshot is read
    Then activeItemsTotal is 0
    And activeItemsTruncated is false

  Scenario: A stale heartbeat makes the inventory unknown, not empty
    Given a busy worker whose last heartbeat is 60 seconds old
    When the operations snapshot is read
    Then activeItemsTotal is null
    And activeStageCounts is null
    And freshness is "stale"
    And capacity.workersStale is 1

  Scenario: More than twenty items are listed oldest first and marked truncated
    Given a worker with 30 slots running 25 "enrich" activities
    When the operations snapshot is read
    Then activeItemsTotal is 25
    And activeItemsTruncated is true
    And activeItems.19.activity is "enrich"

  Scenario: A heartbeat this reader cannot interpret is unsupported, not an idle worker
    Given the only worker heartbeat has an older schema
    When the operations snapshot is read
    Then activeItemsTotal is null
    And freshness is "unsupported"
    And capacity.workersInvalid is 1
