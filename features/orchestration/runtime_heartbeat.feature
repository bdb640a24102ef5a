Feature: Worker heartbeats report runtime facts without leaking payloads

  Scenario: Heartbeat detail never contains a URL, prompt, description or exception text
    Given activities carrying canary strings in their inputs, ids and errors
    When the heartbeat is written while they run
    Then the heartbeat row counts the active activities exactly
    And no canary string appears in the heartbeat row
    And unsafe workflow ids appear only as opaque hashes
