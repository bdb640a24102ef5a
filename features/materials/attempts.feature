Feature: Attempt limits, retailoring and suppression
  Tailoring is allowed five consecutive failed attempts; the fifth raises MaterialsExhausted and
  the job is not tailored again until a retailor is requested.  Suppressed artifacts stop being
  current.

  Scenario: The fifth failed attempt exhausts tailoring
    Given 4 tailoring attempts have failed
    And the model will write the summary "Backend engineer with 30 years of experience." citing "sum-1"
    When the resume is tailored
    Then the events raised are "ResumeFailed, MaterialsExhausted"

  Scenario: An exhausted job is not tailored again
    Given 5 tailoring attempts have failed
    When the resume is tailored
    Then the request is refused as "attempt_budget_exhausted"
    And no event is raised
    And the model was asked 0 times

  Scenario: A retailor request restores the attempt budget
    Given 5 tailoring attempts have failed
    And a retailor was requested as "req-1"
    When the resume is tailored
    Then the events raised are "BulletProvenanceRecorded, ResumeApproved"

  Scenario: A retailor request is recorded once
    Given a retailor was requested as "req-1"
    When a retailor is requested as "req-1"
    Then no event is raised

  Scenario: A suppressed resume is no longer current
    Given a tailored resume was accepted for the job
    When the accepted resume is suppressed as "below_fit_threshold"
    Then the events raised are "TailoredArtifactsSuppressed"
    And the job has no current resume

  Scenario: A cover letter needs an accepted resume
    When the cover letter is written
    Then the request is refused as "missing_input"
    And the model was asked 0 times
