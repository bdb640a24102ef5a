Feature: Outreach through the API and the command line
  The same thread steps as the use cases, from the dashboard's API and from `jobctrl outreach`.
  A refused step answers a typed error and writes nothing; nothing is ever sent by JobCtrl.

  Background:
    Given a careers site that names "Jane Doe" as Head of Talent and "Bob Smith" as Engineering Manager
    And the user started research task "t1" on employer "Hooli"
    And the candidate profile of "Ada Lovelace" is saved
    And the research proposed "Jane Doe" and the user confirmed her

  Scenario: A thread written half through the API, half through the command line
    When the user drafts to "Jane Doe" through the API about the "Staff Platform Engineer" role at "Hooli"
    Then the API answers the thread with the draft in review as generation 1
    And a draft through the API with the point "I led 30 engineers at Umbrella" answers 422 naming "Umbrella", and writes nothing
    When the user edits the draft through the command line
    Then approving generation 1 through the API answers 409, and writes nothing
    When the user approves generation 2 through the command line
    And the user says through the API they sent it by "email"
    And the user records a reply through the command line noting "Let's talk Tuesday"
    And the user sets a follow-up through the API for tomorrow
    Then the command line shows the thread sent, with the reply note and a scheduled follow-up
    When the user marks the follow-up done through the command line
    Then the thread list through the API shows 1 send, 1 reply and the follow-up completed

  Scenario: Refusals through the API and the command line write nothing
    Then drafting through the API to contact "nobody" answers 404, and writes nothing
    And showing thread "nope" through the API answers 404, and writes nothing
    And saying thread "nope" was sent through the command line exits 1, and writes nothing
    And a draft through the API with an unknown field answers 422, and writes nothing

  Scenario: A spent daily budget refuses a draft before the model is asked
    Given today's model spend has reached the daily budget
    Then drafting through the API to "Jane Doe" answers 409 "budget_exceeded", asks no model, and writes nothing
