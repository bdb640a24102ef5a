Feature: Contacts and outreach in the dashboard
  The user decides on research candidates and writes to a confirmed contact from the dashboard, in
  Chromium: confirm or reject, draft, edit, approve, mark sent and record a reply.  A refused edit
  shows the reason in words and changes nothing.

  Background:
    Given a careers site that names "Jane Doe" as Head of Talent and "Bob Smith" as Engineering Manager
    And the user started research task "t1" on employer "Hooli"
    And the candidate profile of "Ada Lovelace" is saved
    And the research read the team page
    And the API serving the dashboard

  Scenario: From a research candidate to a recorded reply, in the browser
    When the user opens the contacts page in Chromium
    And the user clicks "Confirm" for "Jane Doe" and "Reject" for "Bob Smith"
    Then the page shows "Jane Doe" confirmed and a rejected candidate whose name is forgotten
    When the user clicks "Draft outreach" for "Jane Doe"
    Then the outreach page shows a draft greeting "Jane" in review as generation 1
    When the user adds "I scaled Kubernetes to 400 nodes." to the message and saves the edit
    Then the page shows the refusal naming "Kubernetes" and the draft is still generation 1
    When the user clicks "Approve" on the outreach page
    Then the outreach page shows the draft "approved"
    When the user clicks "Mark sent" on the outreach page
    Then the outreach page shows the draft "sent"
    When the user notes "Thanks, let's talk Tuesday" and clicks "Record reply"
    Then the outreach page lists the reply "Thanks, let's talk Tuesday"
    And the log holds one approval, one send and one reply for the thread, and the contacts page lists it
