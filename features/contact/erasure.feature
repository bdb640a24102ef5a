Feature: Erasing a contact from an append-only log
  The log keeps every fact for ever, so personal values enter it only sealed under a key kept per
  person.  Deleting the contact forgets that key: nothing rebuilt from the log can show the person.

  Scenario: The log never holds a person's name in clear
    Given a confirmed contact "Jane Doe" with e-mail "jane@acme.example"
    Then no job_events row contains "Jane Doe" or "jane@acme.example"

  Scenario: After deletion, nothing rebuilt from the log reveals the person
    Given a confirmed contact "Jane Doe" with e-mail "jane@acme.example"
    When the user deletes that contact
    Then a ContactDeleted event is in the log
    And reading every sealed value of the log yields nothing about "Jane Doe"
    And the contact's key is gone from the key store

  Scenario: A deleted contact cannot be deleted twice
    Given a confirmed contact "Jane Doe" with e-mail "jane@acme.example"
    When the user deletes that contact
    Then deleting it again is refused

  Scenario: Finishing the review forgets the people the user did not confirm
    Given a confirmed contact "Jane Doe" with e-mail "jane@acme.example"
    When the user finishes the review
    Then the task completed with 1 confirmed contact
    And the sealed data of "Bob Smith" can no longer be read
