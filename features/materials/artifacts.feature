Feature: The artifact store
  Artifacts are files under one root, written atomically with a sha256 digest, under ids derived
  from what they are.  A retry reuses the stored artifact, a digest mismatch refuses it, and an id
  must be safe before it becomes a file name.

  Scenario: Storing the same artifact again keeps one copy
    Given the artifact "resume_json-a1" was stored with "first"
    When the artifact "resume_json-a1" is stored with "first"
    Then the store reports it already existed
    And the store holds 1 artifact

  Scenario: A retry never overwrites what was committed
    Given the artifact "resume_json-a1" was stored with "first"
    When the artifact "resume_json-a1" is stored with "second"
    Then the store reports it already existed
    And reading "resume_json-a1" returns "first"

  Scenario: A write interrupted before its manifest is redone
    Given the bytes of "resume_json-a1" were written but not its manifest
    When the artifact "resume_json-a1" is stored with "first"
    Then the store reports it was created
    And reading "resume_json-a1" returns "first"

  Scenario: A digest mismatch refuses the artifact
    Given the artifact "resume_json-a1" was stored with "first"
    And its bytes were changed on disk
    When "resume_json-a1" is read
    Then the store refuses it as "artifact_digest_mismatch"

  Scenario Outline: An unsafe id never becomes a file name
    When the artifact "<id>" is stored with "first"
    Then the store refuses it as "invalid_artifact_id"
    And the store holds 0 artifacts

    Examples:
      | id               |
      | ../../etc/passwd |
      | a/b              |
      | .hidden          |
