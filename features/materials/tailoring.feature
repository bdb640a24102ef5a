Feature: Tailoring a resume with provenance
  The model may change only the mutable fields of a resume: summary sentences, the bullets of
  existing experiences, the order and content of existing skill categories, and claim mappings.
  Employers, titles, dates and education come from the profile, and every rendered line cites
  the profile facts it rests on.

  Scenario: An accepted resume records provenance for every rendered line
    When the resume is tailored
    Then the events raised are "BulletProvenanceRecorded, ResumeApproved"
    And the resume is accepted as generation 1
    And every rendered line cites facts of the profile, one provenance record each

  Scenario: A reworded bullet keeps the profile's employer, title and dates
    Given the model will add the bullet "Mentored engineers on PostgreSQL migrations." to "exp-globex" citing "b-globex-2"
    When the resume is tailored
    Then the experience "exp-globex" reads "Senior Backend Engineer — Globex" dated "Mar 2019 – Present"
    And the experiences are "exp-globex, exp-initech" in profile order
    And the bullet "Mentored engineers on PostgreSQL migrations." is listed under "exp-globex"

  Scenario: Skill categories follow the model's order
    Given the model will order the skill categories "skills-infra, skills-lang"
    When the resume is tailored
    Then the skills read "Infrastructure: Kafka, PostgreSQL, Docker" then "Languages: Java, Python, SQL"

  Scenario: The model cannot change an employer, a title or dates
    Given the model will set the "employer" of "exp-globex" to "Hooli"
    And the model will set the "start" of "exp-globex" to "2012-01"
    When the resume is tailored
    Then the attempt fails with a "schema_invalid" error
    And no resume is accepted

  Scenario: The model cannot add an experience
    Given the model will add the bullet "Built Kafka pipelines." to "exp-hooli" citing "b-globex-3"
    When the resume is tailored
    Then the attempt fails with a "unknown_experience" error on "exp-hooli"

  Scenario: The model cannot add a skill category
    Given the model will add the skill category "skills-ml" listing "Python"
    When the resume is tailored
    Then the attempt fails with a "unknown_skill_category" error on "skills-ml"

  Scenario: The model cannot add a section
    Given the model will add a "publications" section
    When the resume is tailored
    Then the attempt fails with a "schema_invalid" error

  Scenario: A bullet cannot borrow another job's achievement
    Given the model will add the bullet "Maintained billing services in Java for 3 product lines." to "exp-globex" citing "b-initech-1"
    When the resume is tailored
    Then the attempt fails with a "misattributed_source" error on "b-initech-1"

  Scenario: A retry of the same tailoring makes no second generation
    Given a tailored resume was accepted for the job
    When the resume is tailored again
    Then no event is raised
    And the resume is accepted as generation 1
    And the artifact store holds 1 "resume_json" artifact

  Scenario: A retry after a committed result does not ask the model again
    Given a tailored resume was accepted for the job
    When the resume is tailored again from baseline generation 0
    Then no event is raised
    And the model was asked 0 times
