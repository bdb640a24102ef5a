Feature: Outreach to a confirmed contact
  The user writes to a person they confirmed from research.  The model drafts the message from the
  candidate's profile, and the draft must pass the same truthfulness check as a resume: anything the
  profile does not support is refused and nothing is kept.  The user edits, approves the exact
  version they read, sends it themselves and says so, records the reply by hand and keeps a
  follow-up reminder.  JobCtrl never sends outreach.  The message is sealed under the contact's own
  key, so deleting the contact leaves nothing readable.

  Background:
    Given a careers site that names "Jane Doe" as Head of Talent and "Bob Smith" as Engineering Manager
    And the user started research task "t1" on employer "Hooli"
    And the candidate profile of "Ada Lovelace" is saved
    And the research proposed "Jane Doe" and the user confirmed her

  Scenario: From a draft to a completed follow-up
    When the user asks the offline model for a draft to "Jane Doe" about the "Staff Platform Engineer" role at "Hooli"
    Then the draft greets "Jane", names the "Staff Platform Engineer" role and awaits review as generation 1
    And the model call is counted in today's spend
    And the log holds the draft only sealed
    When the user asks for a new draft that makes the point "I scaled Kubernetes to 400 nodes at Umbrella"
    Then it is refused for the unsupported claims "Kubernetes", "400" and "Umbrella", and nothing is written
    When the user edits the draft to say "At Globex I cut p99 checkout latency by 40% across 12 services."
    Then the draft awaits review as generation 2
    And approving generation 1 is refused as not the version under review, and nothing is written
    When the user approves generation 2
    And the user says they sent it by "email"
    Then the thread shows the draft sent once by "email"
    And marking it sent again is refused, and nothing is written
    When the user records a reply by "email" noting "Happy to talk next week"
    And the user sets a follow-up for 3 days from now
    Then the thread shows 1 reply and the note "Happy to talk next week"
    And no follow-up is due
    When 4 days pass
    Then the thread's follow-up is due
    When the user marks the follow-up done
    Then no follow-up is due
    And rebuilding the read models from the log gives the same rows as the incremental fold

  Scenario: Steps that do not fit the thread are refused and write nothing
    When the user asks the offline model for a draft to "Jane Doe" about the "Staff Platform Engineer" role at "Hooli"
    Then saying it was sent before it is approved is refused as an invalid transition, and nothing is written
    And recording a reply before anything was sent is refused as an invalid transition, and nothing is written
    And completing a follow-up that was never set is refused as an invalid transition, and nothing is written
    And a draft to a person who was never confirmed is refused, and nothing is written
    And rejecting with the reason "Too Pushy!" is refused as invalid input, and nothing is written

  Scenario: A deleted contact's thread keeps nothing readable
    When the user asks the offline model for a draft to "Jane Doe" about the "Staff Platform Engineer" role at "Hooli"
    And the user approves generation 1
    And the user says they sent it by "linkedin_message"
    And the user records a reply by "email" noting "Call me on Friday"
    And the user deletes the contact "Jane Doe"
    Then the thread opens to no subject, no body and no reply note
    And a new draft to "Jane Doe" is refused, and nothing is written
