Feature: Tailoring follows this posting's requirements
  The tailored resume orders and selects the candidate's own bullets and skills by how well they
  meet the requirements scoring read in this posting's text: must-haves and heavier requirements
  first, and a bullet that meets none gives way to ones that do.  It never adds a fact, so two
  postings can give two different resumes that are both true.

  Background:
    Given the candidate's saved profile is the sample profile

  Scenario: Two postings with different requirements give different, truthful resumes
    Given a posting "job-kafka" at "Hooli" that requires "5+ years building Kafka pipelines"
    And a posting "job-ledger" at "Initech" that requires "Deep PostgreSQL experience, including migrations"
    When both postings are scored and their resumes tailored, as the worker does
    Then the two resumes differ
    And the bullets of "exp-globex" for "job-kafka" are "b-globex-3, b-globex-1"
    And the bullets of "exp-globex" for "job-ledger" are "b-globex-2, b-globex-1"
    And the skills of "job-kafka" start with "Infrastructure: Kafka, PostgreSQL, Docker"
    And the skills of "job-ledger" start with "Infrastructure: PostgreSQL, Kafka, Docker"
    And every line of both resumes quotes a fact of the profile and passes the fabrication check

  Scenario: The requirements a resume answers are mapped to the facts that meet them
    Given a posting "job-kafka" at "Hooli" that requires "5+ years building Kafka pipelines"
    When the posting is scored and its resume tailored, as the worker does
    Then the resume of "job-kafka" maps "5+ years building Kafka pipelines" to "b-globex-3, skills-infra"
