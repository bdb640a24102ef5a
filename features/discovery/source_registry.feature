Feature: Source registry
  Sources have a kind, a crawl policy and a state; every state change is an event, and run
  outcomes recommend quarantine or disabling.

  Scenario: registering a source records its kind, policy and state once
    Given an empty job log
    When source "greenhouse-acme" of kind ats_api with policy "ats" is registered twice
    Then 1 SourceRegistryEntryCreated event was raised for "greenhouse-acme" in state experimental

  Scenario: a source with an unknown crawl policy is refused and nothing is written
    Given an empty job log
    Then registering source "x-1" with policy "aggressive" fails with "configuration"
    And the log is empty

  Scenario: three failed runs in a row quarantine an active source
    Given an active source "lever-initech"
    When its last runs were ok, fail, fail, fail
    Then a SourceStateChanged event moved "lever-initech" from active to quarantined for "consecutive_failures"

  Scenario: a source whose postings are nearly all duplicates is quarantined
    Given an active source "careers-northwind"
    When its last runs were dup, dup, dup
    Then a SourceStateChanged event moved "careers-northwind" from active to quarantined for "high_duplicate_rate"

  Scenario: a disabled source is only re-enabled by an operator
    Given an active source "ashby-hooli"
    And an operator disabled "ashby-hooli"
    When its last runs were fail, fail, fail, fail, fail, fail
    Then re-activating "ashby-hooli" automatically fails with "invalid_source_transition"
    And an operator can re-activate "ashby-hooli"

  Scenario: run outcomes from a crawl feed the recommendation
    Given the sample job board is running
    And an active source "greenhouse-globex"
    And the Greenhouse board "globex" answers 503 three runs in a row
    Then a SourceStateChanged event moved "greenhouse-globex" from active to quarantined for "consecutive_failures"

  Scenario: runs crawl only active and experimental sources
    Given the sample job board is running
    And every sample source is registered as active
    And an operator moved "greenhouse-globex" to quarantined
    And an operator moved "lever-initech" to disabled
    Then the runnable sample sources are all but "greenhouse-globex" and "lever-initech"
