Feature: Reviewing contact research
  Research only proposes people.  The user decides on each one, through the API or the command line:
  a confirmed person becomes a contact, a rejected one never does and their data is forgotten.
  Nothing is ever sent to anyone from here.

  Background:
    Given a careers site that names "Jane Doe" as Head of Talent and "Bob Smith" as Engineering Manager
    And the user started research task "t1" on employer "Acme"
    And the research read the team page the user supplied

  Scenario: The results list the task and its candidates for review
    When the user lists contact research through the API
    Then task "t1" is listed as needing review with 2 candidates
    And the review of task "t1" shows "Bob Smith" and "Jane Doe", both awaiting a decision
    And the command line lists task "t1" and shows "Jane Doe"

  Scenario: Confirmed through the API, rejected through the command line
    When the user confirms "Jane Doe" through the API
    And the user rejects "Bob Smith" through the command line
    Then the review of task "t1" shows "Jane Doe" confirmed and a rejected candidate whose name can no longer be read
    And a contact exists for "Jane Doe" and none for "Bob Smith"
    And confirming the rejected candidate through the API answers 409 and writes nothing

  Scenario: Decisions that cannot apply are refused and write nothing
    Then confirming candidate "nope" of task "t1" through the API answers 404 and writes nothing
    And confirming a candidate of task "nope" through the API answers 404 and writes nothing
    And rejecting with the reason "Not A Code!" through the API answers 422 and writes nothing
    And rejecting candidate "nope" of task "t1" through the command line exits 1 and writes nothing
