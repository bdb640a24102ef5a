Feature: Candidate profile changes continue preparation through an outbox
  A genuine profile change and its continuation intent commit together.  A save that changes
  nothing after normalization, or only style/template, starts nothing.  Each continuation has a
  deterministic workflow id; draining coalesces only revisions that provably never started.

  Background:
    Given the profile was saved with skills "Python, SQL" and style "classic"

  Scenario: A genuine change commits ProfileUpdated and its intent in one transaction
    When the profile is saved with skills "Python, SQL, Go" and style "classic"
    Then the save is "updated" at profile version 2
    And the save appended ProfileRevisionSaved, ProfileUpdated, ProfileContinuationQueued together
    And ProfileUpdated lists changed sections "skills"

  Scenario: A save that only differs in whitespace is a no-op
    When the profile is saved with skills "  Python,   SQL " and style "classic"
    Then the save is "no_change" at profile version 1
    And the save appended nothing

  Scenario: A style-only save records the revision but starts nothing
    When the profile is saved with skills "Python, SQL" and style "modern"
    Then the save is "presentation_only" at profile version 2
    And the save appended ProfileRevisionSaved together
    And the outbox holds 1 intent

  Scenario: Each delivered profile event has its own deterministic continuation id
    When the profile is saved with skills "Python, SQL, Go" and style "classic"
    Then every intent's workflow id is "profile-continuation-" and 24 hex digits derived from its ProfileUpdated event id
    And the outbox holds 2 intents with distinct workflow ids

  Scenario: Draining coalesces revisions that never started into the newest and starts it
    Given the profile was saved with skills "Python, SQL, Go" and style "classic"
    When the outbox is drained
    Then the drain starts the intent of profile version 2
    And the intent of profile version 1 was coalesced into it
    And the dispatch intent was committed before the drain returned

  Scenario: An intended execution is re-attached, never coalesced or started twice
    Given the outbox was drained
    And the profile was saved with skills "Python, SQL, Rust" and style "classic"
    When the outbox is drained while earlier continuations are still running
    Then the drain attaches to the intent of profile version 1 and starts the intent of profile version 2
    And no intent was coalesced

  Scenario: A closed continuation is never attached to or started again
    Given the outbox was drained
    And the continuation of profile version 1 closed as "succeeded"
    And the profile was saved with skills "Python, SQL, Rust" and style "classic"
    When the outbox is drained while Temporal no longer knows any continuation
    Then the drain starts the intent of profile version 2
    And the intent of profile version 1 is closed

  Scenario: A continuation closes once, and only after its dispatch
    Given the outbox was drained
    When the continuation of profile version 1 closes as "failed" and then as "canceled"
    Then the log holds one ProfileContinuationClosed for profile version 1 with outcome "failed"
    And closing a continuation the outbox never dispatched records nothing
