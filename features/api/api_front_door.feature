Feature: The API's front door refuses what a browser attack or careless input would send
  Every route sits behind the same checks: a request for another host, a cross-site or non-JSON
  write, an oversized body or text the stores cannot hold is refused with a typed error, and the
  log does not move.

  Scenario: A page on another site cannot read the profile through a rebound name
    When a request for host "attacker.example" reads the profile
    Then the answer is 421 "misdirected_request"

  Scenario: A cross-site form post does not start a Discover run
    Given the last worker heartbeat was 5 seconds ago
    When a page posts plain text to start a Discover run
    Then the answer is 415 "unsupported_media_type"
    And the job log did not move

  Scenario: A write from another origin is refused
    When a page on "http://attacker.example" saves the settings
    Then the answer is 403 "cross_origin_refused"
    And the job log did not move

  Scenario: A profile larger than the body limit is refused before it is read
    When the operator saves a profile of 2 MiB
    Then the answer is 413 "payload_too_large"
    And the job log did not move

  Scenario: A lone surrogate in the profile is refused, naming the field
    When the operator saves a profile whose summary holds a lone surrogate
    Then the answer is 422 "invalid_request"
    And the error names "summary"
    And the job log did not move

  Scenario: Auto-apply is not switched on by a word that looks like yes
    When the operator sets autoApply to the text "yes"
    Then the answer is 422 "invalid_request"
    And auto-apply is still off
