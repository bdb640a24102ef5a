Feature: Cover letters pass the same checks
  A cover letter is written for the current accepted resume and goes through the same fact and
  technology checks.  The salutation and the target role and company are exempt.  There is no
  CoverLetterFailed event: a refused letter raises nothing, unless it was the last allowed attempt.

  Background:
    Given a tailored resume was accepted for the job

  Scenario: A grounded cover letter is generated
    When the cover letter is written
    Then the events raised are "CoverLetterGenerated"
    And the letter is addressed to "Hooli" for the role "Staff Platform Engineer"
    And every paragraph cites facts of the profile

  Scenario Outline: A fabricated <kind> in a cover letter is refused
    Given the model will write the cover paragraph "<text>" citing "b-globex-1"
    When the cover letter is written
    Then no event is raised
    And the letter is refused with a "fabricated_<kind>" error on "<token>"

    Examples:
      | kind       | text                                                 | token     |
      | number     | I cut p99 checkout latency by 60%.                   | 60        |
      | employer   | I cut p99 checkout latency by 40% at Massive Dynamic. | Massive Dynamic |
      | technology | I cut p99 checkout latency by 40% using Cassandra.   | Cassandra |

  Scenario: The salutation and the target role and company are exempt
    Given the model will open with the salutation "Dear Gavin Belson,"
    And the model will write the cover paragraph "I would be glad to join Hooli as Staff Platform Engineer." citing "sum-2"
    When the cover letter is written
    Then the events raised are "CoverLetterGenerated"

  Scenario: A refused letter on the last allowed attempt exhausts the cover stage
    Given the model will write the cover paragraph "I scaled Cassandra to 900 nodes." citing "b-globex-1"
    When the cover letter is written on attempt 5
    Then the events raised are "MaterialsExhausted"

  Scenario: A retry reuses the letter written for the current resume
    Given a cover letter was written for the job
    When the cover letter is written
    Then no event is raised
    And the model was asked 0 times
