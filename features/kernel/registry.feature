Feature: The event registry and its generated schemas
  The registry is the single source of event types.  Clients in other languages read the JSON
  Schemas and registry.json generated from it, so the registry only ever grows at the end.

  Scenario: The registry starts with the reference catalog in its order
    Given the JobCtrl registry
    Then its first 100 event types are the reference names in the reference order
    And it has no StageQueued, DiscoveryRunProgress or CoverLetterFailed event

  Scenario: The committed artefacts match the registry
    Given the JobCtrl registry
    Then the generated schemas, registry.json and TypeScript types are current

  Scenario: Reordering the registry is caught
    Given generated artefacts for the JobCtrl registry
    When two event types swap places
    Then the check fails naming the moved event type

  Scenario: Removing an event type is caught
    Given generated artefacts for the JobCtrl registry
    When the last event type is removed
    Then the check fails naming the removed event type

  Scenario: Changing an event's shape without a new schema version is caught
    Given generated artefacts for the JobCtrl registry
    When JobHidden gains a field but keeps schema version 1
    Then the check fails saying JobHidden changed shape without a new schema version

  Scenario: Renaming a nested payload type with the same fields is not a change of shape
    Given generated artefacts for the JobCtrl registry
    When PipelineStepQueued's execution reference type is renamed but keeps its fields
    Then regenerating the artefacts succeeds and PipelineStepQueued names the new type

  Scenario: A nested payload type gaining a field is a change of shape
    Given generated artefacts for the JobCtrl registry
    When PipelineStepQueued's execution reference gains a field but keeps schema version 1
    Then the check fails saying PipelineStepQueued changed shape without a new schema version

  Scenario: A new schema version with an upcaster is accepted
    Given generated artefacts for the JobCtrl registry
    When JobHidden gains a field under schema version 2 with an upcaster from version 1
    Then a stored version 1 JobHidden payload decodes as version 2
    And regenerating the artefacts succeeds
